package main

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// freshConns tracks the connections the server has accepted but whose
// first request it has not read yet. http.Server.Shutdown drops such a
// connection without an answer when its request is read after Shutdown
// began, although the client sent it before: a server busy with other
// work (the background jobs, a burst of sign-ins) takes a moment to get
// to it. Waiting for them before Shutdown drains those requests too.
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// track is the server's ConnState hook.
func (f *freshConns) track(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conns == nil {
		f.conns = map[net.Conn]struct{}{}
	}
	if st == http.StateNew {
		f.conns[c] = struct{}{}
	} else {
		delete(f.conns, c)
	}
}

// wait returns once no accepted connection waits for its first request
// to be read, or after max (a client that connects and sends nothing).
func (f *freshConns) wait(max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		n := len(f.conns)
		f.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
