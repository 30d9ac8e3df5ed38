package httpapi

import (
	"net/http"

	"fairbalance/ratelimit"
	"fairbalance/service"
)

var noLimit ratelimit.Rule

// Handler returns every route of the server, on one screen.
func (a *API) Handler() http.Handler {
	mux := http.NewServeMux()
	open, keyed := true, false

	// Identity (/auth/v1), GoTrue-compatible.
	mux.Handle("POST /auth/v1/signup", a.auth(keyed, "otp", ruleOTP, a.handleSignup))
	mux.Handle("POST /auth/v1/token", a.auth(keyed, "token", ruleToken, a.handleToken))
	mux.Handle("GET /auth/v1/user", a.auth(keyed, "", noLimit, a.handleGetUser))
	mux.Handle("PUT /auth/v1/user", a.auth(keyed, "otp", ruleOTP, a.handlePutUser))
	mux.Handle("GET /auth/v1/reauthenticate", a.auth(keyed, "otp", ruleOTP, a.handleReauthenticate))
	mux.Handle("POST /auth/v1/logout", a.auth(keyed, "", noLimit, a.handleLogout))
	mux.Handle("POST /auth/v1/recover", a.auth(keyed, "otp", ruleOTP, a.handleRecover))
	mux.Handle("POST /auth/v1/otp", a.auth(keyed, "otp", ruleOTP, a.handleOTP))
	mux.Handle("POST /auth/v1/magiclink", a.auth(keyed, "otp", ruleOTP, a.handleOTP))
	mux.Handle("POST /auth/v1/resend", a.auth(keyed, "otp", ruleOTP, a.handleResend))
	mux.Handle("POST /auth/v1/verify", a.auth(keyed, "verify", ruleVerify, a.handleVerifyPost))
	mux.Handle("GET /auth/v1/verify", a.auth(open, "verify", ruleVerify, a.handleVerifyGet))
	mux.Handle("GET /auth/v1/settings", a.auth(keyed, "", noLimit, a.handleSettings))
	mux.Handle("GET /auth/v1/health", a.auth(open, "", noLimit, a.handleAuthHealth))
	mux.Handle("GET /auth/v1/.well-known/jwks.json", a.auth(open, "", noLimit, a.handleJWKS))
	mux.Handle("POST /auth/v1/factors", a.auth(keyed, "", noLimit, a.handleEnroll))
	mux.Handle("POST /auth/v1/factors/{id}/challenge", a.auth(keyed, "mfa", ruleMFA, a.handleChallenge))
	mux.Handle("POST /auth/v1/factors/{id}/verify", a.auth(keyed, "mfa", ruleMFA, a.handleVerifyFactor))
	mux.Handle("DELETE /auth/v1/factors/{id}", a.auth(keyed, "", noLimit, a.handleUnenroll))
	mux.Handle("POST /auth/v1/invite", a.auth(keyed, "", noLimit, a.admin(a.handleInvite)))
	mux.Handle("POST /auth/v1/admin/generate_link", a.auth(keyed, "", noLimit, a.admin(a.handleGenerateLink)))
	mux.Handle("GET /auth/v1/admin/users", a.auth(keyed, "", noLimit, a.admin(a.handleListUsers)))
	mux.Handle("POST /auth/v1/admin/users", a.auth(keyed, "", noLimit, a.admin(a.handleCreateUser)))
	mux.Handle("GET /auth/v1/admin/users/{id}", a.auth(keyed, "", noLimit, a.admin(a.handleAdminGetUser)))
	mux.Handle("PUT /auth/v1/admin/users/{id}", a.auth(keyed, "", noLimit, a.admin(a.handleAdminUpdateUser)))
	mux.Handle("DELETE /auth/v1/admin/users/{id}", a.auth(keyed, "", noLimit, a.admin(a.handleAdminDeleteUser)))
	mux.Handle("GET /auth/v1/admin/users/{id}/factors", a.auth(keyed, "", noLimit, a.admin(a.handleAdminListFactors)))
	mux.Handle("DELETE /auth/v1/admin/users/{id}/factors/{fid}", a.auth(keyed, "", noLimit, a.admin(a.handleAdminDeleteFactor)))
	mux.Handle("/auth/v1/", a.auth(open, "", noLimit, a.handleAuthNotFound))

	// Data API (/rest/v1), PostgREST-compatible, over the registry.
	mux.HandleFunc("/rest/v1/{table}", a.handleRest)
	mux.HandleFunc("/rest/v1/rpc/{fn}", a.handleRPC)
	mux.HandleFunc("GET /rest/v1/{$}", a.handleRestRoot)

	// Storage (/storage/v1), storage-js compatible.
	mux.Handle("GET /storage/v1/bucket", a.withCaller(a.handleListBuckets))
	mux.Handle("POST /storage/v1/bucket", a.withCaller(a.handleCreateBucket))
	mux.Handle("GET /storage/v1/bucket/{id}", a.withCaller(a.handleGetBucket))
	mux.Handle("PUT /storage/v1/bucket/{id}", a.withCaller(a.handleUpdateBucket))
	mux.Handle("DELETE /storage/v1/bucket/{id}", a.withCaller(a.handleDeleteBucket))
	mux.Handle("POST /storage/v1/bucket/{id}/empty", a.withCaller(a.handleEmptyBucket))
	mux.Handle("POST /storage/v1/object/list/{bucket}", a.withCaller(a.handleList))
	mux.Handle("POST /storage/v1/object/list-v2/{bucket}", a.withCaller(a.handleListV2))
	mux.Handle("POST /storage/v1/object/move", a.withCaller(a.handleMove))
	mux.Handle("POST /storage/v1/object/copy", a.withCaller(a.handleCopy))
	mux.Handle("POST /storage/v1/object/sign/{bucket}", a.withCaller(a.handleSignMany))
	mux.Handle("POST /storage/v1/object/sign/{bucket}/{path...}", a.withCaller(a.handleSignOne))
	mux.Handle("GET /storage/v1/object/sign/{bucket}/{path...}", a.storageOpen(a.handleSignedDownload))
	mux.Handle("POST /storage/v1/object/upload/sign/{bucket}/{path...}", a.withCaller(a.handleSignUpload))
	mux.Handle("PUT /storage/v1/object/upload/sign/{bucket}/{path...}", a.storageOpen(a.handleUploadSigned))
	mux.Handle("GET /storage/v1/object/public/{bucket}/{path...}", a.storageOpen(a.handlePublicDownload))
	mux.Handle("GET /storage/v1/object/authenticated/{bucket}/{path...}", a.withCaller(a.handleDownload))
	mux.Handle("GET /storage/v1/object/info/{bucket}/{path...}", a.withCaller(a.handleObjectInfo))
	mux.Handle("GET /storage/v1/object/{bucket}/{path...}", a.withCaller(a.handleDownload))
	mux.Handle("POST /storage/v1/object/{bucket}/{path...}", a.withCaller(a.handleUpload))
	mux.Handle("PUT /storage/v1/object/{bucket}/{path...}", a.withCaller(a.handleUpload))
	mux.Handle("DELETE /storage/v1/object/{bucket}", a.withCaller(a.handleRemove))
	mux.HandleFunc("/storage/v1/", a.handleStorageNotFound)

	// Operations.
	mux.HandleFunc("GET /api/health", a.handleHealth)
	mux.Handle("POST /api/preview/session", a.auth(keyed, "preview", rulePreview, a.handlePreviewSession))
	mux.HandleFunc("GET /api/config", a.handleConfig)
	mux.Handle("GET /api/admin/mail", a.auth(keyed, "", noLimit, a.admin(a.handleMail)))
	mux.HandleFunc("GET /api/reviews/{id}/record.pdf", a.handleExport(service.FormatPDF, a.reviewRecord))
	mux.HandleFunc("GET /api/reviews/{id}/record.json", a.handleExport(service.FormatJSON, a.reviewRecord))
	mux.HandleFunc("GET /api/assets/{id}/form-2253.pdf", a.handleExport(service.FormatPDF, a.form2253))
	mux.HandleFunc("GET /api/assets/{id}/form-2253.json", a.handleExport(service.FormatJSON, a.form2253))
	mux.HandleFunc("/api/", a.handleAPINotFound)

	// Functions and gate.
	mux.HandleFunc("/functions/v1/{name}", a.handleFunction)
	mux.HandleFunc("/functions/v1/", a.handleFunctionNotFound)
	mux.HandleFunc("POST /api/gate", a.handleGate)
	mux.HandleFunc("DELETE /api/gate", a.handleGateClear)
	mux.HandleFunc("GET /robots.txt", a.handleRobots)

	// The web app.
	mux.Handle("/", a.spa())

	return a.base(a.gate(mux))
}
