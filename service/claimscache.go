package service

import (
	"sync"
	"time"

	"fairbalance/auth"
)

// claimsCache remembers verified tokens so that a client making many calls
// with one access token pays for the signature check once. Entries live until
// the token expires or for five minutes, whichever is first; when full, the
// cache starts afresh (tokens are cheap to verify again).
type claimsCache struct {
	mu  sync.RWMutex
	max int
	m   map[string]cachedClaims
}

type cachedClaims struct {
	c     *auth.Claims
	until time.Time
}

func newClaimsCache(max int) *claimsCache {
	return &claimsCache{max: max, m: make(map[string]cachedClaims)}
}

func (cc *claimsCache) get(token string, now time.Time) (*auth.Claims, bool) {
	cc.mu.RLock()
	e, ok := cc.m[token]
	cc.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return nil, false
	}
	return e.c, true
}

func (cc *claimsCache) put(token string, c *auth.Claims, now time.Time) {
	until := now.Add(5 * time.Minute)
	if c.ExpiresAt != 0 {
		if exp := time.Unix(c.ExpiresAt, 0); exp.Before(until) {
			until = exp
		}
	}
	cc.mu.Lock()
	if len(cc.m) >= cc.max {
		cc.m = make(map[string]cachedClaims)
	}
	cc.m[token] = cachedClaims{c: c, until: until}
	cc.mu.Unlock()
}
