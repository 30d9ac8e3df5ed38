package pgrest

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"fairbalance"
)

func intp(n int) *int { return &n }

func TestParsePrefer(t *testing.T) {
	tests := []struct {
		in   []string
		want Prefer
	}{
		{nil, Prefer{}},
		{[]string{""}, Prefer{}},
		{[]string{"return=minimal"}, Prefer{Return: ReturnMinimal}},
		{[]string{"return=representation"}, Prefer{Return: ReturnRepresentation}},
		{[]string{"return=headers-only"}, Prefer{Return: ReturnHeadersOnly}},
		{[]string{"count=exact"}, Prefer{Count: CountExact}},
		{[]string{"count=planned"}, Prefer{Count: CountPlanned}},
		{[]string{"count=estimated"}, Prefer{Count: CountEstimated}},
		{[]string{"resolution=merge-duplicates"}, Prefer{Resolution: MergeDuplicates}},
		{[]string{"resolution=ignore-duplicates"}, Prefer{Resolution: IgnoreDuplicates}},
		{[]string{"missing=default"}, Prefer{Missing: MissingDefault}},
		{[]string{"missing=null"}, Prefer{Missing: MissingNull}},
		{[]string{"tx=commit"}, Prefer{Tx: TxCommit}},
		{[]string{"tx=rollback"}, Prefer{Tx: TxRollback}},
		{[]string{"handling=lenient"}, Prefer{Handling: HandlingLenient}},
		{[]string{"handling=strict, max-affected=5"}, Prefer{Handling: HandlingStrict, MaxAffected: intp(5)}},
		// supabase-js joins appended preferences with ", ".
		{[]string{"count=exact, return=representation"}, Prefer{Count: CountExact, Return: ReturnRepresentation}},
		{[]string{"resolution=merge-duplicates, count=exact, missing=default, return=representation"},
			Prefer{Resolution: MergeDuplicates, Count: CountExact, Missing: MissingDefault, Return: ReturnRepresentation}},
		// Several header lines, odd spacing, first occurrence wins.
		{[]string{" return=minimal ,,count=exact", "return=representation"}, Prefer{Return: ReturnMinimal, Count: CountExact}},
		// Unknown and invalid preferences are kept and ignored.
		{[]string{"return=everything, timezone=UTC, params=single-object, foo, count=EXACT, max-affected=-1"},
			Prefer{Unknown: []string{"return=everything", "timezone=UTC", "params=single-object", "foo", "count=EXACT", "max-affected=-1"}}},
		{[]string{"handling=lenient, bogus=1"}, Prefer{Handling: HandlingLenient, Unknown: []string{"bogus=1"}}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.in, "|"), func(t *testing.T) {
			got, err := ParsePrefer(tt.in...)
			if err != nil {
				t.Fatalf("ParsePrefer: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestPreferString(t *testing.T) {
	p, err := ParsePrefer("tx=rollback, bogus, count=exact, return=representation, max-affected=3, handling=lenient, missing=default, resolution=ignore-duplicates")
	if err != nil {
		t.Fatal(err)
	}
	want := "return=representation, count=exact, resolution=ignore-duplicates, missing=default, handling=lenient, tx=rollback, max-affected=3"
	if got := p.String(); got != want {
		t.Fatalf("String() = %q\nwant       %q", got, want)
	}
	again, err := ParsePrefer(p.String())
	p.Unknown = nil
	if err != nil || !reflect.DeepEqual(again, p) {
		t.Fatalf("round trip: %#v, %v", again, err)
	}
}

func TestParsePreferStrict(t *testing.T) {
	_, err := ParsePrefer("handling=strict, return=minimal, bogus, count=many")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not *Error", err)
	}
	want := &Error{Kind: fairbalance.KindInvalid, Code: "PGRST122", Message: "Invalid preferences given with handling=strict", Details: "Invalid preferences: bogus, count=many"}
	if !reflect.DeepEqual(e, want) {
		t.Fatalf("got %#v", e)
	}
	if _, err := ParsePrefer(strings.Repeat("x", MaxParamLength+1)); err == nil {
		t.Fatal("an over-long header was accepted")
	}
}
