package service

import (
	"context"
	"strings"
)

// The client behind a data API call — its address and user agent, as the
// HTTP surface sees the request — travels in the call's context: the
// functions' signature (fairbalance.Caller) is about rights, and most
// functions do not care where a call came from. decide_step records it on
// the electronic signature, and the review functions on their audit
// entries.

type clientKey struct{}

// WithClient returns ctx carrying c, the client of the request being
// served. The HTTP surface sets it on every data API function call.
func WithClient(ctx context.Context, c Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

// ClientFrom is the client ctx carries (WithClient); the zero Client when
// none was set (background work, the demo seeding, tests). Its user agent
// is cut to 512 bytes and its address to 64, each valid UTF-8.
func ClientFrom(ctx context.Context) Client {
	c, _ := ctx.Value(clientKey{}).(Client)
	c.UserAgent = strings.ToValidUTF8(truncate(c.UserAgent, 512), "")
	c.IP = strings.ToValidUTF8(truncate(c.IP, 64), "")
	return c
}
