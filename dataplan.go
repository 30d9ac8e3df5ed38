package fairbalance

import (
	"context"
	"encoding/json"
)

// ColumnType is the type of a column served by the data API; it decides
// how filter values are converted before they are bound.
type ColumnType string

// Column types.
const (
	TypeText      ColumnType = "text"
	TypeUUID      ColumnType = "uuid"
	TypeInteger   ColumnType = "integer"
	TypeBoolean   ColumnType = "boolean"
	TypeTimestamp ColumnType = "timestamptz"
	TypeJSON      ColumnType = "jsonb"
	TypeNumeric   ColumnType = "numeric"
	TypeTextArray ColumnType = "text[]"
)

// Cond is a condition tree of a data API query. A leaf has Column,
// Operator and its bound value(s); a branch has Logic ("and" or "or") and
// Children. Negated negates either. Column names are checked against the
// table before a Cond reaches the store; values are only ever bound as
// parameters.
type Cond struct {
	Logic    string
	Children []*Cond
	Negated  bool

	Column   string
	Operator string // eq neq gt gte lt lte like ilike is in cs cd
	Value    any    // for "is": nil (null), true or false
	Values   []any  // for "in", "cs", "cd"
}

// OrderTerm is one ORDER BY term.
type OrderTerm struct {
	Column     string
	Desc       bool
	NullsFirst *bool
}

// Embed is a one-level embedded relation of a read: the rows of Table whose
// ForeignColumn equals the parent's LocalColumn, as an object (Many false)
// or an array (Many true).
type Embed struct {
	Name          string // the key in the parent row
	Table         string
	Columns       []SelectColumn
	LocalColumn   string
	ForeignColumn string
	Many          bool
	Inner         bool // drop parents without a match
	Where         *Cond
}

// SelectColumn is a column of a read, renamed to Alias in the result.
type SelectColumn struct {
	Column string
	Alias  string
	Type   ColumnType
}

// ReadPlan is a validated read of one table.
type ReadPlan struct {
	Table   string
	Columns []SelectColumn
	Embeds  []Embed
	Where   *Cond
	Order   []OrderTerm
	Limit   int // 0: no limit; negative: no rows
	Offset  int
	// Count asks for the number of rows matching Where (ignoring paging).
	Count bool
}

// WritePlan is a validated insert, update or delete.
type WritePlan struct {
	Table string
	// Rows to insert, or the one row of new values for an update; keys are
	// column names already checked against the table.
	Rows []map[string]any
	// Columns of Rows, in order (every row has exactly these keys).
	Columns []string
	Where   *Cond // update and delete
	// OnConflict names the unique columns of an upsert; with IgnoreDuplicates
	// a conflicting row is skipped, otherwise it is merged.
	OnConflict       []string
	IgnoreDuplicates bool
	// MergeColumns are the columns a merging upsert sets on a conflicting
	// row; nil sets every column of Columns but the OnConflict ones.
	MergeColumns []string
	// Returning lists the columns to return (nil: none).
	Returning []SelectColumn
}

// DataStore runs data API plans. Results are JSON arrays of objects, built
// by the database so rows never pass through Go maps.
type DataStore interface {
	// Read returns the rows (a JSON array) and, when plan.Count, the total.
	Read(ctx context.Context, plan *ReadPlan) (rows json.RawMessage, total int64, err error)
	// ReadEach runs plan (its Count is ignored) and calls fn with each row,
	// a JSON object, in order, holding one row at a time: the way to read
	// more rows than fit comfortably in memory. The bytes passed to fn are
	// valid only during the call. An error of fn stops the read and is
	// returned as it is.
	ReadEach(ctx context.Context, plan *ReadPlan, fn func(row []byte) error) error
	// Count returns, for each plan, the number of rows matching its Where
	// (and its inner embeds), all in one statement: one round trip for
	// several counts, of one snapshot. Columns, order and paging are
	// ignored.
	Count(ctx context.Context, plans []*ReadPlan) ([]int64, error)
	Insert(ctx context.Context, plan *WritePlan) (json.RawMessage, int64, error)
	Update(ctx context.Context, plan *WritePlan) (json.RawMessage, int64, error)
	Delete(ctx context.Context, plan *WritePlan) (json.RawMessage, int64, error)
}
