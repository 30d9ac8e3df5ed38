//go:build !noui

// Package web provides the Fairbalance browser application, a React
// single-page app, for the Go server to serve.
//
// The app is built from this directory with `npm run build`, which writes it
// to web/dist; building the Go program without the noui tag compiles dist
// into the binary. dist holds a committed placeholder (.gitkeep), so the
// program also builds (and go vet runs) before any web build, without the
// app. Building with `-tags noui` leaves the app out, for API-only binaries
// and for Go work without a Node toolchain.
package web

import (
	"embed"
	"io/fs"
)

// dist holds the output of `npm run build`. The all: prefix keeps files whose
// names begin with "." or "_", which Vite may emit.
//
//go:embed all:dist
var dist embed.FS

// Dist returns the built single-page application and reports whether this
// binary contains it.
//
// When dist held a build at compile time it returns a non-nil file system
// and true. The file system is rooted at the build output: "index.html" is
// at its root, and scripts and styles are under "_app/" with content hashes
// in their names, so they never change once published and may be cached
// indefinitely, unlike index.html. Paths that match no file are client-side
// routes, for which the server should send index.html.
//
// When dist held only its placeholder, and in builds with the noui tag, it
// returns nil and false.
func Dist() (fs.FS, bool) {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "dist" is valid.
		panic("web: " + err.Error())
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return nil, false
	}
	return sub, true
}
