// Package ratelimit provides token-bucket limits keyed by a string (a bucket
// name and a client address), held in memory.
package ratelimit

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rule is a limit: Events per Per, with bursts of up to Burst.
type Rule struct {
	Events int
	Per    time.Duration
	Burst  int
}

// Limiter applies rules per key. Keys unused for an hour are forgotten.
// A nil *Limiter allows everything.
type Limiter struct {
	mu      sync.Mutex
	buckets map[string]*entry
	now     func() time.Time
	last    time.Time
}

type entry struct {
	l    *rate.Limiter
	seen time.Time
}

// New returns an empty Limiter.
func New() *Limiter {
	return &Limiter{buckets: make(map[string]*entry), now: time.Now}
}

// Allow takes one token for key under rule and reports whether it was there.
func (l *Limiter) Allow(rule Rule, key string) bool {
	if l == nil || rule.Events <= 0 {
		return true
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.last) > 10*time.Minute {
		for k, e := range l.buckets {
			if now.Sub(e.seen) > time.Hour {
				delete(l.buckets, k)
			}
		}
		l.last = now
	}
	e, ok := l.buckets[key]
	if !ok {
		burst := rule.Burst
		if burst <= 0 {
			burst = 1
		}
		e = &entry{l: rate.NewLimiter(rate.Limit(float64(rule.Events)/rule.Per.Seconds()), burst)}
		l.buckets[key] = e
	}
	e.seen = now
	return e.l.AllowN(now, 1)
}
