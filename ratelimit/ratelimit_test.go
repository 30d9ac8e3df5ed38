package ratelimit

import (
	"testing"
	"time"
)

func TestBurstThenRefuse(t *testing.T) {
	l := New()
	now := time.Unix(1_700_000_000, 0)
	l.now = func() time.Time { return now }
	rule := Rule{Events: 150, Per: 5 * time.Minute, Burst: 30}
	for i := 0; i < 30; i++ {
		if !l.Allow(rule, "token:1.2.3.4") {
			t.Fatalf("request %d refused within the burst", i+1)
		}
	}
	if l.Allow(rule, "token:1.2.3.4") {
		t.Fatal("request 31 allowed")
	}
	if !l.Allow(rule, "token:5.6.7.8") {
		t.Fatal("another address shares the bucket")
	}
	now = now.Add(2 * time.Second) // 0.5 tokens per second
	if !l.Allow(rule, "token:1.2.3.4") {
		t.Fatal("no refill after 2 s")
	}
	var nilLimiter *Limiter
	if !nilLimiter.Allow(rule, "x") {
		t.Fatal("nil limiter refused")
	}
}
