package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"fairbalance"
)

// Group commit (SQLite). SQLite has one writer, and most of what a write
// transaction costs is fixed: taking the write lock, and at commit writing
// the changed pages to the WAL. When several requests want to write at
// once, one goroutine runs their transaction functions one after another
// inside a single SQLite transaction, each in a savepoint of its own, and
// commits once. A function that fails is rolled back to its savepoint and
// gets its error; the others are unaffected. No caller returns before the
// commit that holds its change, so each Tx keeps its meaning: all or
// nothing, durable when it returns nil.

const maxBatch = 64

type txRequest struct {
	ctx  context.Context
	fn   func(tx fairbalance.Tx) error
	done chan error
}

// panicked carries a panic from a transaction function back to its caller.
type panicked struct {
	value any
	stack []byte
}

func (p *panicked) Error() string { return fmt.Sprintf("panic in transaction: %v", p.value) }

// groupCommitter owns the SQLite writer connection for transactions.
type groupCommitter struct {
	mu     sync.RWMutex
	closed bool
	reqs   chan *txRequest
	done   chan struct{}
}

var errClosed = errors.New("sqlstore: database is closed")

func (db *DB) startGroupCommit() {
	db.gc = &groupCommitter{reqs: make(chan *txRequest, maxBatch), done: make(chan struct{})}
	go db.commitLoop()
}

func (db *DB) stopGroupCommit() {
	if db.gc == nil {
		return
	}
	db.gc.mu.Lock()
	if !db.gc.closed {
		db.gc.closed = true
		close(db.gc.reqs)
	}
	db.gc.mu.Unlock()
	<-db.gc.done
}

// groupTx hands fn to the commit loop and waits for the commit.
func (db *DB) groupTx(ctx context.Context, fn func(tx fairbalance.Tx) error) error {
	r := &txRequest{ctx: ctx, fn: fn, done: make(chan error, 1)}
	db.gc.mu.RLock()
	if db.gc.closed {
		db.gc.mu.RUnlock()
		return errClosed
	}
	select {
	case db.gc.reqs <- r:
	case <-ctx.Done():
		db.gc.mu.RUnlock()
		return ctx.Err()
	}
	db.gc.mu.RUnlock()
	// Wait even if ctx ends: fn may be running and must finish first.
	err := <-r.done
	var p *panicked
	if errors.As(err, &p) {
		panic(fmt.Sprintf("%v\n\n[in transaction]\n%s", p.value, p.stack))
	}
	return err
}

func (db *DB) commitLoop() {
	defer close(db.gc.done)
	batch := make([]*txRequest, 0, maxBatch)
	for first := range db.gc.reqs {
		batch = append(batch[:0], first)
	drain:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-db.gc.reqs:
				if !ok {
					break drain
				}
				batch = append(batch, r)
			default:
				break drain
			}
		}
		db.runBatch(batch)
	}
}

func (db *DB) runBatch(batch []*txRequest) {
	ctx := context.Background()
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		for _, r := range batch {
			r.done <- fmt.Errorf("sqlstore: begin: %w", err)
		}
		return
	}
	results := make([]error, len(batch))
	var missed []string
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			results[i] = err
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT fb_tx"); err != nil {
			results[i] = fmt.Errorf("sqlstore: savepoint: %w", err)
			continue
		}
		q := &querier{pool: db.writer, tx: tx, stmts: &db.wstmts, d: db.d, inTx: true, mailHook: db.mailHook.Load(), jobHook: db.jobHook.Load()}
		err := runFn(r.fn, q)
		if err != nil {
			if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO fb_tx"); rerr != nil {
				err = errors.Join(err, fmt.Errorf("sqlstore: rollback to savepoint: %w", rerr))
			}
		}
		if _, rerr := tx.ExecContext(ctx, "RELEASE fb_tx"); rerr != nil && err == nil {
			err = fmt.Errorf("sqlstore: release savepoint: %w", rerr)
		}
		results[i] = err
		missed = append(missed, q.missed...)
	}
	cerr := tx.Commit()
	for i, r := range batch {
		err := results[i]
		if err == nil && cerr != nil {
			err = fmt.Errorf("sqlstore: commit: %w", cerr)
		}
		r.done <- err
	}
	for _, query := range missed {
		_, _ = db.wstmts.get(ctx, db.writer, query)
	}
}

func runFn(fn func(tx fairbalance.Tx) error, q *querier) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicked{value: v, stack: debug.Stack()}
		}
	}()
	return fn(q)
}
