package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/pgrest"
	"fairbalance/service"
)

// Storage (/storage/v1), storage-js compatible. Errors come in the storage
// shape: HTTP 400 with the real status as a string in statusCode (500
// stays 500; a few routes force their status).

type storageErr struct {
	StatusCode string `json:"statusCode"`
	Code       string `json:"code"`
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// storageLabels gives each code its status and legacy "error" label.
var storageLabels = map[string]struct {
	status int
	label  string
}{
	service.CodeNoSuchBucket:     {404, "Bucket not found"},
	service.CodeNoSuchKey:        {404, "not_found"},
	service.CodeDuplicate:        {409, "Duplicate"},
	service.CodeAccessDenied:     {403, "Unauthorized"},
	service.CodeInvalidMimeType:  {415, "invalid_mime_type"},
	service.CodeEntityTooLarge:   {413, "Payload too large"},
	service.CodeResourceNotEmpty: {409, "Conflict"},
	service.CodeInvalidKey:       {400, "Invalid Input"},
	service.CodeInvalidBucket:    {400, "Invalid Input"},
	service.CodeInvalidRequest:   {400, "Invalid Input"},
	service.CodeInvalidSignature: {400, "InvalidSignature"},
	service.CodeExpiredToken:     {400, "ExpiredToken"},
	service.CodeInvalidJWT:       {400, "InvalidJWT"},
}

func (a *API) storageError(w http.ResponseWriter, r *http.Request, err error) {
	if fairbalance.AsError(err) == nil && (errors.Is(err, io.ErrUnexpectedEOF) || r.Context().Err() != nil) {
		// The body broke off before its end (the client stopped sending or
		// went away mid-upload): nothing was stored. A client error, said
		// in case the client still listens.
		a.log.Info("storage: request body cut short", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", err)
		err = fairbalance.Errorf(fairbalance.KindInvalid, service.CodeInvalidRequest, "%s", bodyReadDetails(io.ErrUnexpectedEOF))
	}
	if errors.Is(err, errStorageBody) {
		err = fairbalance.Errorf(fairbalance.KindInvalid, service.CodeInvalidRequest, "%s", strings.TrimPrefix(err.Error(), errStorageBody.Error()+": "))
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = fairbalance.Errorf(fairbalance.KindTooLarge, service.CodeEntityTooLarge, "The object exceeded the maximum allowed size")
	}
	fe := fairbalance.AsError(err)
	if fe == nil || fe.Kind == fairbalance.KindInternal {
		a.log.Error("storage: internal error", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, storageErr{StatusCode: "500", Code: "InternalError", Error: "internal", Message: "Internal server error (request " + RequestID(r.Context()) + ")"})
		return
	}
	l, ok := storageLabels[fe.Code]
	if !ok {
		l.status, l.label = statusOf(fe.Kind), fe.Code
	}
	status := http.StatusBadRequest
	if fe.Code == service.CodeAccessDenied && strings.HasPrefix(fe.Message, "Only the service role") {
		status = http.StatusForbidden
	}
	writeJSON(w, status, storageErr{StatusCode: strconv.Itoa(l.status), Code: fe.Code, Error: l.label, Message: fe.Message})
}

var errStorageBody = errors.New("invalid body")

// storageCaller establishes the caller like the data API does; a bad or
// missing token is storage's AccessDenied.
func (a *API) storageCaller(w http.ResponseWriter, r *http.Request) (fairbalance.Caller, bool) {
	if !a.checkAPIKey(w, r) {
		return fairbalance.Caller{}, false
	}
	c, err := a.restCaller(r)
	if err != nil {
		msg := err.Error()
		var pe *pgrest.Error
		if errors.As(err, &pe) {
			msg = pe.Message
		}
		writeJSON(w, http.StatusBadRequest, storageErr{StatusCode: "403", Code: service.CodeAccessDenied, Error: "Unauthorized", Message: msg})
		return fairbalance.Caller{}, false
	}
	return c, true
}

// withCaller wraps an authenticated storage route.
func (a *API) withCaller(h func(w http.ResponseWriter, r *http.Request, c fairbalance.Caller)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if a.storage == nil {
			a.storageError(w, r, fairbalance.Errorf(fairbalance.KindNotFound, "NotFound", "Storage is not configured"))
			return
		}
		c, ok := a.storageCaller(w, r)
		if !ok {
			return
		}
		h(w, r, c)
	}
}

// storageOpen wraps a route without a token (public and signed).
func (a *API) storageOpen(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if a.storage == nil {
			a.storageError(w, r, fairbalance.Errorf(fairbalance.KindNotFound, "NotFound", "Storage is not configured"))
			return
		}
		h(w, r)
	}
}

func decodeStorageBody(r *http.Request, v any) error {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: body must be JSON: %v", errStorageBody, err)
	}
	return nil
}

// ---- Buckets ----

func bucketView(b *fairbalance.Bucket, withType bool) map[string]any {
	m := map[string]any{"id": b.ID, "name": b.Name, "owner": b.Owner, "public": b.Public, "file_size_limit": b.FileSizeLimit,
		"allowed_mime_types": b.AllowedMimeTypes, "created_at": b.CreatedAt, "updated_at": b.UpdatedAt}
	if withType {
		m["type"] = "STANDARD"
	}
	return m
}

func (a *API) handleListBuckets(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	l, err := a.storage.ListBuckets(r.Context(), c)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	q := r.URL.Query()
	search := q.Get("search")
	out := []map[string]any{}
	for _, b := range l {
		if search == "" || strings.Contains(strings.ToLower(b.Name), strings.ToLower(search)) {
			out = append(out, bucketView(b, true))
		}
	}
	if q.Get("sortOrder") == "desc" {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	off, _ := strconv.Atoi(q.Get("offset"))
	off = min(max(off, 0), len(out))
	out = out[off:]
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n >= 0 && n < len(out) {
		out = out[:n]
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) handleGetBucket(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	b, err := a.storage.GetBucket(r.Context(), c, r.PathValue("id"))
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, bucketView(b, false))
}

type bucketBody struct {
	ID               string          `json:"id"`
	Name             string          `json:"name"`
	Public           *bool           `json:"public"`
	FileSizeLimit    json.RawMessage `json:"file_size_limit"`
	AllowedMimeTypes json.RawMessage `json:"allowed_mime_types"`
	OrgID            string          `json:"org_id"`
}

// parseSize reads a file_size_limit: a number of bytes or a string such
// as "20MB".
func parseSize(raw json.RawMessage) (*int64, bool, error) {
	if len(raw) == 0 {
		return nil, false, nil
	}
	if string(raw) == "null" {
		return nil, true, nil
	}
	var n float64
	if json.Unmarshal(raw, &n) == nil {
		v := int64(n)
		return &v, false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false, fmt.Errorf("%w: file_size_limit must be a number or a size", errStorageBody)
	}
	s = strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suf) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suf)), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false, fmt.Errorf("%w: file_size_limit must be a number or a size", errStorageBody)
	}
	v := int64(f * float64(mult))
	return &v, false, nil
}

func (b *bucketBody) input(id string) (service.BucketInput, error) {
	in := service.BucketInput{ID: id, Public: b.Public, OrgID: b.OrgID}
	size, clear, err := parseSize(b.FileSizeLimit)
	if err != nil {
		return in, err
	}
	in.FileSizeLimit, in.ClearSizeLimit = size, clear
	if len(b.AllowedMimeTypes) > 0 {
		var l []string
		if string(b.AllowedMimeTypes) != "null" {
			if err := json.Unmarshal(b.AllowedMimeTypes, &l); err != nil {
				return in, fmt.Errorf("%w: allowed_mime_types must be a list", errStorageBody)
			}
			if l == nil {
				l = []string{}
			}
		}
		in.AllowedMimeTypes = &l
	}
	return in, nil
}

func (a *API) handleCreateBucket(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var body bucketBody
	if err := decodeStorageBody(r, &body); err != nil {
		a.storageError(w, r, err)
		return
	}
	id := body.ID
	if id == "" {
		id = body.Name
	}
	in, err := body.input(id)
	if err == nil {
		_, err = a.storage.CreateBucket(r.Context(), c, in)
	}
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": id})
}

func (a *API) handleUpdateBucket(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var body bucketBody
	if err := decodeStorageBody(r, &body); err != nil {
		a.storageError(w, r, err)
		return
	}
	in, err := body.input(r.PathValue("id"))
	if err == nil {
		err = a.storage.UpdateBucket(r.Context(), c, in)
	}
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "Successfully updated"})
}

func (a *API) handleEmptyBucket(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	if err := a.storage.EmptyBucket(r.Context(), c, r.PathValue("id")); err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "Successfully emptied"})
}

func (a *API) handleDeleteBucket(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	if err := a.storage.DeleteBucket(r.Context(), c, r.PathValue("id")); err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "Successfully deleted"})
}

// ---- Uploads ----

// uploadInput reads an upload request: multipart/form-data (fields
// cacheControl and metadata, then the file part), or the raw body with
// cache-control and x-metadata headers. The file is never buffered: the
// returned input's Body is the request stream.
func uploadInput(r *http.Request, bucket, name string) (service.UploadInput, error) {
	in := service.UploadInput{Bucket: bucket, Name: name, Upsert: r.Header.Get("x-upsert") == "true"}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		in.Body = r.Body
		in.CacheControl = r.Header.Get("Cache-Control")
		if m := r.Header.Get("x-metadata"); m != "" {
			b, err := base64.StdEncoding.DecodeString(m)
			if err != nil {
				return in, fmt.Errorf("%w: x-metadata must be base64 JSON", errStorageBody)
			}
			in.Metadata = b
		}
		return in, nil
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return in, fmt.Errorf("%w: %v", errStorageBody, err)
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return in, fmt.Errorf("%w: the form has no file", errStorageBody)
		}
		if err != nil {
			return in, fmt.Errorf("%w: %v", errStorageBody, err)
		}
		switch {
		case p.FileName() != "" || p.FormName() == "":
			in.Body = p
			return in, nil
		case p.FormName() == "cacheControl":
			b, _ := io.ReadAll(io.LimitReader(p, 256))
			in.CacheControl = string(b)
		case p.FormName() == "metadata":
			b, _ := io.ReadAll(io.LimitReader(p, 64<<10))
			in.Metadata = b
		}
	}
}

// longBody lifts the server's read deadline for a large upload.
func longBody(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(time.Hour))
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Hour))
}

func (a *API) handleUpload(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	longBody(w)
	in, err := uploadInput(r, r.PathValue("bucket"), r.PathValue("path"))
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	if r.Method == http.MethodPut {
		in.Upsert = true
	}
	o, err := a.storage.Upload(r.Context(), c, in)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"Id": o.ID, "Key": o.BucketID + "/" + o.Name})
}

func (a *API) handleSignUpload(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	bucket, path := r.PathValue("bucket"), r.PathValue("path")
	tok, err := a.storage.SignUploadURL(r.Context(), c, bucket, path, r.Header.Get("x-upsert") == "true")
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	name, _ := service.CleanObjectName(path)
	writeJSON(w, http.StatusOK, map[string]any{"url": "/object/upload/sign/" + bucket + "/" + name + "?token=" + tok, "token": tok})
}

func (a *API) handleUploadSigned(w http.ResponseWriter, r *http.Request) {
	longBody(w)
	in, err := uploadInput(r, r.PathValue("bucket"), r.PathValue("path"))
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	o, err := a.storage.UploadSigned(r.Context(), r.URL.Query().Get("token"), in)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"Id": o.ID, "Key": o.BucketID + "/" + o.Name})
}

// ---- Downloads ----

// inlineTypes are served inline; every other type (HTML, SVG, XML,
// scripts…) is served as an attachment, so a stored file never runs in
// the application's origin.
var inlineTypes = map[string]bool{"application/pdf": true, "image/png": true, "image/jpeg": true, "image/webp": true, "image/gif": true, "text/plain": true}

func etag(o *fairbalance.StoredObject) string { return `"` + o.SHA256 + `"` }

func (a *API) serveObject(w http.ResponseWriter, r *http.Request, o *fairbalance.StoredObject, blob fairbalance.Blob) {
	defer blob.Close()
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Hour))
	h := w.Header()
	essence, _, _ := strings.Cut(o.MimeType, ";")
	essence = strings.TrimSpace(strings.ToLower(essence))
	h.Set("Content-Type", o.MimeType)
	h.Set("Cache-Control", o.CacheControl)
	h.Set("ETag", etag(o))
	h.Set("X-Robots-Tag", "none")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	q := r.URL.Query()
	base := o.Name[strings.LastIndex(o.Name, "/")+1:]
	switch {
	case q.Has("download"):
		name := q.Get("download")
		if name == "" {
			name = base
		}
		h.Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(name))
	case !inlineTypes[essence]:
		h.Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(base))
	}
	http.ServeContent(w, r, "", o.UpdatedAt, blob)
}

func (a *API) handleDownload(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	o, blob, err := a.storage.Open(r.Context(), c, r.PathValue("bucket"), r.PathValue("path"))
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	a.serveObject(w, r, o, blob)
}

func (a *API) handlePublicDownload(w http.ResponseWriter, r *http.Request) {
	o, blob, err := a.storage.OpenPublic(r.Context(), r.PathValue("bucket"), r.PathValue("path"))
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	a.serveObject(w, r, o, blob)
}

func (a *API) handleSignedDownload(w http.ResponseWriter, r *http.Request) {
	o, blob, err := a.storage.OpenSigned(r.Context(), r.PathValue("bucket"), r.PathValue("path"), r.URL.Query().Get("token"))
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	a.serveObject(w, r, o, blob)
}

func (a *API) handleObjectInfo(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	o, err := a.storage.Info(r.Context(), c, r.PathValue("bucket"), r.PathValue("path"))
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": o.ID, "name": o.Name, "version": o.BlobKey[strings.LastIndex(o.BlobKey, "/")+1:], "bucket_id": o.BucketID,
		"size": o.Size, "content_type": o.MimeType, "cache_control": o.CacheControl, "etag": etag(o), "metadata": o.Metadata,
		"last_modified": o.UpdatedAt, "created_at": o.CreatedAt})
}

// ---- Listing, removal, move, copy, signed URLs ----

func objectMeta(o *fairbalance.StoredObject) map[string]any {
	return map[string]any{"eTag": etag(o), "size": o.Size, "mimetype": o.MimeType, "cacheControl": o.CacheControl,
		"lastModified": o.UpdatedAt, "contentLength": o.Size, "httpStatusCode": 200}
}

func (a *API) handleList(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var body struct {
		Prefix string `json:"prefix"`
		Search string `json:"search"`
		Limit  int    `json:"limit"`
		Offset int    `json:"offset"`
		SortBy struct {
			Column string `json:"column"`
			Order  string `json:"order"`
		} `json:"sortBy"`
	}
	if err := decodeStorageBody(r, &body); err != nil {
		a.storageError(w, r, err)
		return
	}
	l, err := a.storage.List(r.Context(), c, r.PathValue("bucket"), service.ListInput{Prefix: body.Prefix, Search: body.Search,
		Limit: body.Limit, Offset: body.Offset, SortColumn: body.SortBy.Column, SortOrder: body.SortBy.Order})
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	out := make([]map[string]any, len(l))
	for i, e := range l {
		if e.Object == nil {
			out[i] = map[string]any{"name": e.Name, "id": nil, "updated_at": nil, "created_at": nil, "last_accessed_at": nil, "metadata": nil}
			continue
		}
		o := e.Object
		out[i] = map[string]any{"name": e.Name, "id": o.ID, "updated_at": o.UpdatedAt, "created_at": o.CreatedAt, "last_accessed_at": o.LastAccessedAt, "metadata": objectMeta(o)}
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) handleRemove(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var body struct {
		Prefixes []string `json:"prefixes"`
	}
	if err := decodeStorageBody(r, &body); err != nil {
		a.storageError(w, r, err)
		return
	}
	if len(body.Prefixes) == 0 || len(body.Prefixes) > 1000 {
		a.storageError(w, r, fairbalance.Errorf(fairbalance.KindInvalid, service.CodeInvalidRequest, "prefixes must list 1 to 1000 names"))
		return
	}
	gone, err := a.storage.Remove(r.Context(), c, r.PathValue("bucket"), body.Prefixes)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	out := make([]map[string]any, len(gone))
	for i, o := range gone {
		out[i] = map[string]any{"id": o.ID, "name": o.Name, "bucket_id": o.BucketID, "owner": o.Owner, "created_at": o.CreatedAt,
			"updated_at": o.UpdatedAt, "last_accessed_at": o.LastAccessedAt, "metadata": objectMeta(o)}
	}
	writeJSON(w, http.StatusOK, out)
}

type relocateBody struct {
	BucketID          string `json:"bucketId"`
	SourceKey         string `json:"sourceKey"`
	DestinationKey    string `json:"destinationKey"`
	DestinationBucket string `json:"destinationBucket"`
}

func (a *API) handleMove(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var b relocateBody
	if err := decodeStorageBody(r, &b); err != nil {
		a.storageError(w, r, err)
		return
	}
	o, err := a.storage.Move(r.Context(), c, b.BucketID, b.SourceKey, b.DestinationBucket, b.DestinationKey)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "Successfully moved", "Id": o.ID, "Key": o.BucketID + "/" + o.Name})
}

func (a *API) handleCopy(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var b relocateBody
	if err := decodeStorageBody(r, &b); err != nil {
		a.storageError(w, r, err)
		return
	}
	o, err := a.storage.Copy(r.Context(), c, b.BucketID, b.SourceKey, b.DestinationBucket, b.DestinationKey)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"Id": o.ID, "Key": o.BucketID + "/" + o.Name, "name": o.Name, "bucket_id": o.BucketID})
}

func signedPath(bucket, name, tok string) string {
	return "/object/sign/" + bucket + "/" + name + "?token=" + tok
}

func (a *API) handleSignOne(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var body struct {
		ExpiresIn int64 `json:"expiresIn"`
	}
	if err := decodeStorageBody(r, &body); err != nil {
		a.storageError(w, r, err)
		return
	}
	bucket := r.PathValue("bucket")
	name, _ := service.CleanObjectName(r.PathValue("path"))
	tok, err := a.storage.SignURL(r.Context(), c, bucket, name, body.ExpiresIn)
	if err != nil {
		a.storageError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"signedURL": signedPath(bucket, name, tok)})
}

func (a *API) handleSignMany(w http.ResponseWriter, r *http.Request, c fairbalance.Caller) {
	var body struct {
		ExpiresIn int64    `json:"expiresIn"`
		Paths     []string `json:"paths"`
	}
	if err := decodeStorageBody(r, &body); err != nil {
		a.storageError(w, r, err)
		return
	}
	if len(body.Paths) > 1000 {
		a.storageError(w, r, fairbalance.Errorf(fairbalance.KindInvalid, service.CodeInvalidRequest, "at most 1000 paths"))
		return
	}
	bucket := r.PathValue("bucket")
	if _, err := a.storage.GetBucket(r.Context(), c, bucket); err != nil {
		a.storageError(w, r, err)
		return
	}
	out := make([]map[string]any, len(body.Paths))
	for i, p := range body.Paths {
		name, _ := service.CleanObjectName(p)
		tok, err := a.storage.SignURL(r.Context(), c, bucket, name, body.ExpiresIn)
		if err != nil {
			if fe := fairbalance.AsError(err); fe == nil {
				a.storageError(w, r, err)
				return
			}
			out[i] = map[string]any{"error": "Either the object does not exist or you do not have access to it", "path": p, "signedURL": nil}
			continue
		}
		out[i] = map[string]any{"error": nil, "path": p, "signedURL": signedPath(bucket, name, tok)}
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) handleStorageNotFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, storageErr{StatusCode: "404", Code: "NotFound", Error: "Not Found", Message: "Route " + r.Method + ":" + r.URL.Path + " not found"})
}
