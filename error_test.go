package fairbalance_test

import (
	"errors"
	"testing"

	"fairbalance"
)

func TestErrorString(t *testing.T) {
	cause := errors.New("disk full")
	for _, tt := range []struct {
		err  *fairbalance.Error
		want string
	}{
		{&fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "PGRST100", Message: "m"}, "PGRST100: m"},
		{&fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "PGRST100", Message: "m", Details: "d", Hint: "h"}, "PGRST100: m: d"},
		{&fairbalance.Error{Kind: fairbalance.KindInternal, Code: "unexpected_failure", Message: "m", Err: cause}, "unexpected_failure: m: disk full"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	wrapped := &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "x", Err: cause}
	if !errors.Is(wrapped, cause) || fairbalance.AsError(wrapped) != wrapped || fairbalance.AsError(cause) != nil {
		t.Fatal("the cause is not reachable through the Error")
	}
}
