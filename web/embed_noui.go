//go:build noui

// Package web provides the Fairbalance browser application, a React
// single-page app, for the Go server to serve.
//
// This file is used in builds with the noui tag, which leave the app out of
// the binary; see embed.go for the default build.
package web

import "io/fs"

// Dist returns the built single-page application and reports whether this
// binary contains it.
//
// In builds with the noui tag, like this one, the app is not compiled in:
// Dist returns nil and false, and callers should serve no UI (for example,
// answer 404 for non-API paths).
//
// In builds without the noui tag it returns the output of `npm run build`
// (index.html at the root, hashed assets under "_app/") and true.
func Dist() (fs.FS, bool) {
	return nil, false
}
