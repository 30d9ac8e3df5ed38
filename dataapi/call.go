package dataapi

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"fairbalance"
)

// FunctionSpec declares a function served at /rest/v1/rpc/{name}: a
// workflow step with validated JSON arguments, run in one transaction.
type FunctionSpec struct {
	Name string
	// ReadOnly functions may also be called with GET.
	ReadOnly bool
	// Args names the accepted arguments (others are refused).
	Args []string
	// Optional names the arguments that may be left out, and ArgTypes the
	// type of those that are not text; both only describe the function
	// (generated types, OpenAPI).
	Optional []string
	ArgTypes map[string]fairbalance.ColumnType
	// Mails tells that the function may put mail in the outbox: the
	// mailer is woken once its transaction has committed.
	Mails bool
	// Prepare, when set, runs after the arguments are checked and before
	// the transaction opens: slow work (reading and extracting an uploaded
	// file) that must not hold a transaction. It may leave results for
	// Call in args under names beginning with "_", which no client can
	// send (undeclared arguments are refused before).
	Prepare func(ctx context.Context, c fairbalance.Caller, args map[string]any) error
	Call    func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error)
}

// RegisterFunctions adds functions to the data API.
func (d *Engine) RegisterFunctions(fns ...*FunctionSpec) {
	if d.funcs == nil {
		d.funcs = map[string]*FunctionSpec{}
	}
	for _, f := range fns {
		d.funcs[f.Name] = f
	}
}

// Functions lists the registered functions, sorted by name.
func (d *Engine) Functions() []*FunctionSpec {
	var out []*FunctionSpec
	for _, f := range d.funcs {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Call runs a function. get tells a GET call (read-only functions only).
func (d *Engine) Call(ctx context.Context, c fairbalance.Caller, name string, args map[string]any, get bool) (json.RawMessage, error) {
	f, ok := d.funcs[name]
	if !ok {
		keys := make([]string, 0, len(args))
		for k := range args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return nil, NewError(fairbalance.KindNotFound, "PGRST202", fmt.Sprintf("Could not find the function public.%s(%s) in the schema cache", name, strings.Join(keys, ", ")), "", "")
	}
	if c.Demo && !f.ReadOnly {
		return nil, DemoRefusal()
	}
	if get && !f.ReadOnly {
		return nil, NewError(fairbalance.KindMethodNotAllowed, "25006", "cannot execute this function in a read-only transaction", "", "")
	}
	for k := range args {
		if !slices.Contains(f.Args, k) {
			return nil, NewError(fairbalance.KindNotFound, "PGRST202", fmt.Sprintf("Could not find the function public.%s(%s) in the schema cache", name, k), "", "")
		}
	}
	if f.Prepare != nil {
		if args == nil {
			args = map[string]any{}
		}
		if err := f.Prepare(ctx, c, args); err != nil {
			return nil, d.storeError(c, name, err)
		}
	}
	var out any
	run := func(tx fairbalance.Tx) error {
		var err error
		out, err = f.Call(ctx, tx, c, args)
		return err
	}
	var err error
	if f.ReadOnly {
		err = run(d.store.View())
	} else {
		err = d.store.Tx(ctx, run)
	}
	if err != nil {
		return nil, d.storeError(c, name, err)
	}
	if f.Mails && d.MailQueued != nil {
		d.MailQueued()
	}
	if out == nil {
		return nil, nil
	}
	b, err := json.Marshal(out)
	return b, internal(err)
}

// Raise is a function's refusal, as PostgreSQL's RAISE EXCEPTION reaches
// clients through PostgREST (invalid, code P0001).
func Raise(msg string) *fairbalance.Error {
	return NewError(fairbalance.KindInvalid, "P0001", msg, "", "")
}
