// Package auditseal seals the audit trail: at least every minute while a
// chain grows, and on shutdown, it writes each grown chain's head as a
// signed fairbalance.AuditCheckpoint to append-only logs outside the
// database — a JSON-lines file in the data directory and, when the files
// are kept in S3, one immutable object per checkpoint — and it reads those
// logs back for verification (see Check).
//
// The key that signs checkpoints is not in the database, so someone who can
// rewrite the database can neither sign a checkpoint for a rewritten chain
// nor change one without breaking its signature.
package auditseal

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"fairbalance"
)

// Record is one checkpoint as a log holds it.
type Record struct {
	Checkpoint fairbalance.AuditCheckpoint
	// Source names where it was read ("audit-checkpoints.jsonl line 12").
	Source string
	// Err is set when the record could not be read as a checkpoint (a
	// damaged line or object); Checkpoint is then empty.
	Err error
}

// Log is an append-only place for checkpoints.
type Log interface {
	// Place names the log for people ("data directory", "s3").
	Place() string
	// Append writes the checkpoints durably, or fails; on failure some of
	// them may have been written (a later duplicate is harmless).
	Append(ctx context.Context, cps []fairbalance.AuditCheckpoint) error
	// Read hands every record to fn, in the order written where the log
	// keeps one; fn's error stops the reading and is returned.
	Read(ctx context.Context, fn func(Record) error) error
}

// FileName is the checkpoint log's file in the data directory.
const FileName = "audit-checkpoints.jsonl"

// FileLog is a JSON-lines file, one checkpoint a line, only ever appended
// to: it is opened with O_APPEND, each batch goes in one write, and the
// file is synced before Append returns.
type FileLog struct {
	path string
	mu   sync.Mutex // one appender at a time within the process
}

// NewFileLog returns the log kept in the file at path (created on the first
// append, mode 0600).
func NewFileLog(path string) *FileLog { return &FileLog{path: path} }

// Path is the file's path.
func (l *FileLog) Path() string { return l.path }

// Place implements Log.
func (l *FileLog) Place() string { return "data directory" }

// Append implements Log.
func (l *FileLog) Append(ctx context.Context, cps []fairbalance.AuditCheckpoint) error {
	if len(cps) == 0 {
		return nil
	}
	var b bytes.Buffer
	for i := range cps {
		line, err := json.Marshal(&cps[i])
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return fmt.Errorf("auditseal: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("auditseal: %w", err)
	}
	// A crash in the middle of a write can leave a last line without its
	// newline: start on a line of our own.
	torn, err := endsTorn(l.path)
	if err != nil {
		f.Close()
		return fmt.Errorf("auditseal: %w", err)
	}
	out := b.Bytes()
	if torn {
		out = append([]byte{'\n'}, out...)
	}
	if _, err := f.Write(out); err != nil {
		f.Close()
		return fmt.Errorf("auditseal: write %s: %w", l.path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("auditseal: sync %s: %w", l.path, err)
	}
	return f.Close()
}

// endsTorn reports whether the file at path is not empty and does not end
// with a newline.
func endsTorn(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], st.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// maxLine bounds one line of the log (a checkpoint takes about 300 bytes).
const maxLine = 64 << 10

// Read implements Log. A missing file holds no checkpoints. An empty line
// is skipped; a line that is not a checkpoint is handed over with Err set.
func (l *FileLog) Read(ctx context.Context, fn func(Record) error) error {
	f, err := os.Open(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("auditseal: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, maxLine)
	name := filepath.Base(l.path)
	for n := 1; ; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Far longer than any checkpoint: skip the rest of the line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if ferr := fn(Record{Source: fmt.Sprintf("%s line %d", name, n), Err: errors.New("line too long")}); ferr != nil {
				return ferr
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("auditseal: read %s: %w", l.path, err)
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			rec := parse(t, fmt.Sprintf("%s line %d", name, n))
			if ferr := fn(rec); ferr != nil {
				return ferr
			}
		}
		if err != nil { // io.EOF
			return nil
		}
	}
}

func parse(b []byte, source string) Record {
	var cp fairbalance.AuditCheckpoint
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&cp); err != nil {
		return Record{Source: source, Err: fmt.Errorf("not a checkpoint: %w", err)}
	}
	return Record{Checkpoint: cp, Source: source}
}

// BlobPrefix is where BlobLog keeps its objects in the blob store.
const BlobPrefix = "audit-checkpoints/"

// BlobLog keeps one object per checkpoint in a blob store (S3), under
// BlobPrefix + "<organisation>/<seq>-<digest>.json". The key ends with a
// digest of the object's bytes, so an object is never replaced by other
// bytes; one that exists already is not written again. A bucket with
// versioning or Object Lock keeps even the store's own administrators from
// removing them unnoticed.
type BlobLog struct {
	store fairbalance.BlobStore
}

// NewBlobLog returns the log kept in store.
func NewBlobLog(store fairbalance.BlobStore) *BlobLog { return &BlobLog{store: store} }

// Place implements Log.
func (l *BlobLog) Place() string { return "s3" }

// BlobKey is the key of cp's object.
func BlobKey(cp *fairbalance.AuditCheckpoint, body []byte) string {
	org := cp.OrgID
	if org == "" {
		org = "_instance"
	} else {
		org = url.PathEscape(org)
	}
	sum := sha256.Sum256(body)
	return fmt.Sprintf("%s%s/%020d-%s.json", BlobPrefix, org, cp.Seq, hex.EncodeToString(sum[:8]))
}

// Append implements Log.
func (l *BlobLog) Append(ctx context.Context, cps []fairbalance.AuditCheckpoint) error {
	for i := range cps {
		body, err := json.Marshal(&cps[i])
		if err != nil {
			return err
		}
		key := BlobKey(&cps[i], body)
		if _, err := l.store.Stat(ctx, key); err == nil {
			continue // the very same checkpoint, written before
		} else if !errors.Is(err, fairbalance.ErrNotFound) {
			return fmt.Errorf("auditseal: %s: %w", key, err)
		}
		if _, err := l.store.Put(ctx, key, bytes.NewReader(body), maxLine); err != nil {
			return fmt.Errorf("auditseal: %s: %w", key, err)
		}
	}
	return nil
}

// Read implements Log, in key order (by organisation, then entry).
func (l *BlobLog) Read(ctx context.Context, fn func(Record) error) error {
	var keys []string
	for b, err := range l.store.List(ctx, BlobPrefix) {
		if err != nil {
			return err
		}
		keys = append(keys, b.Key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		if !strings.HasSuffix(key, ".json") {
			continue
		}
		rec, err := l.get(ctx, key)
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}

func (l *BlobLog) get(ctx context.Context, key string) (Record, error) {
	b, err := l.store.Get(ctx, key)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return Record{Source: key, Err: errors.New("listed but gone")}, nil
	}
	if err != nil {
		return Record{}, err
	}
	defer b.Close()
	body, err := io.ReadAll(io.LimitReader(b, maxLine))
	if err != nil {
		return Record{}, err
	}
	rec := parse(bytes.TrimSpace(body), key)
	if rec.Err == nil && BlobKey(&rec.Checkpoint, body) != key {
		// Not necessarily forged (the signature decides that), but not
		// the bytes this key was written with.
		rec = Record{Source: key, Err: errors.New("the object's contents do not match its key")}
	}
	return rec, nil
}
