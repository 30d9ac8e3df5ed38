package blobstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Disk stores blobs as files under a root directory (the data directory's
// "files"). Temporary files are written in root/.tmp, on the same file
// system, so that the final rename is atomic.
type Disk struct {
	root string
	tmp  string
}

// NewDisk returns a Disk rooted at dir, creating it (mode 0700) if needed.
// Temporary files left by a crash are removed.
func NewDisk(dir string) (*Disk, error) {
	d := &Disk{root: dir, tmp: filepath.Join(dir, ".tmp")}
	if err := os.MkdirAll(d.tmp, 0o700); err != nil {
		return nil, fmt.Errorf("blobstore: %w", err)
	}
	if ents, err := os.ReadDir(d.tmp); err == nil {
		for _, e := range ents {
			_ = os.Remove(filepath.Join(d.tmp, e.Name()))
		}
	}
	return d, nil
}

var _ Store = (*Disk)(nil)

// path maps a key to its file, refusing keys that could leave the root.
func (d *Disk) path(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

// ctxReader stops a copy when the context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Put implements Store. The body goes to a temporary file through a
// 32 KiB buffer (constant memory), is fsynced, then renamed into place.
func (d *Disk) Put(ctx context.Context, key string, r io.Reader, limit int64) (Info, error) {
	dst, err := d.path(key)
	if err != nil {
		return Info{}, err
	}
	f, err := os.CreateTemp(d.tmp, "put-*")
	if err != nil {
		return Info{}, fmt.Errorf("blobstore: %w", err)
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	src := io.Reader(ctxReader{ctx, r})
	if limit > 0 {
		src = io.LimitReader(src, limit+1)
	}
	n, err := io.Copy(io.MultiWriter(f, h), src)
	if err != nil {
		return Info{}, fmt.Errorf("blobstore: put %s: %w", key, err)
	}
	if limit > 0 && n > limit {
		return Info{}, ErrTooLarge
	}
	if err := f.Sync(); err != nil {
		return Info{}, fmt.Errorf("blobstore: %w", err)
	}
	if err := f.Close(); err != nil {
		return Info{}, fmt.Errorf("blobstore: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return Info{}, fmt.Errorf("blobstore: %w", err)
	}
	if err := os.Rename(f.Name(), dst); err != nil {
		return Info{}, fmt.Errorf("blobstore: %w", err)
	}
	done = true
	syncDir(filepath.Dir(dst))
	return Info{Key: key, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), ModTime: time.Now().UTC()}, nil
}

// syncDir makes a rename durable; failures are ignored (not every file
// system supports it).
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		_ = f.Sync()
		f.Close()
	}
}

type diskBlob struct {
	*os.File
	size int64
	mod  time.Time
}

func (b *diskBlob) Size() int64        { return b.size }
func (b *diskBlob) ModTime() time.Time { return b.mod }

// Get implements Store.
func (d *Disk) Get(ctx context.Context, key string) (Blob, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("blobstore: %w", err)
	}
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		f.Close()
		return nil, ErrNotFound
	}
	return &diskBlob{File: f, size: st.Size(), mod: st.ModTime().UTC()}, nil
}

// Stat implements Store.
func (d *Disk) Stat(ctx context.Context, key string) (Info, error) {
	p, err := d.path(key)
	if err != nil {
		return Info{}, err
	}
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return Info{}, ErrNotFound
		}
		return Info{}, fmt.Errorf("blobstore: %w", err)
	}
	return Info{Key: key, Size: st.Size(), ModTime: st.ModTime().UTC()}, nil
}

// Delete implements Store.
func (d *Disk) Delete(ctx context.Context, key string) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobstore: %w", err)
	}
	return nil
}

// Copy implements Store, through Put, so the copy is checksummed and
// atomically visible.
func (d *Disk) Copy(ctx context.Context, src, dst string) (Info, error) {
	b, err := d.Get(ctx, src)
	if err != nil {
		return Info{}, err
	}
	defer b.Close()
	return d.Put(ctx, dst, b, 0)
}

// errStopList ends a walk the consumer of List stopped.
var errStopList = errors.New("blobstore: listing stopped")

// List implements Store: a walk, in lexical order of each directory, of
// the directory that prefix names (up to its last "/"; the root for a
// prefix without one), skipping the temporaries and anything that is not a
// regular file under a valid key beginning with prefix. Files and
// directories removed during the walk are skipped over.
func (d *Disk) List(ctx context.Context, prefix string) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		start := d.root
		if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
			if err := checkKey(prefix[:i]); err != nil {
				return // no blob has a key under an invalid one
			}
			start = filepath.Join(d.root, filepath.FromSlash(prefix[:i]))
		}
		err := filepath.WalkDir(start, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if (p != d.root || start != d.root) && errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if e.IsDir() {
				if p == d.tmp {
					return fs.SkipDir
				}
				return nil
			}
			if !e.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(d.root, p)
			if err != nil {
				return nil
			}
			key := filepath.ToSlash(rel)
			if !strings.HasPrefix(key, prefix) || checkKey(key) != nil {
				return nil
			}
			st, err := e.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			if !yield(Info{Key: key, Size: st.Size(), ModTime: st.ModTime().UTC()}, nil) {
				return errStopList
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStopList) {
			yield(Info{}, fmt.Errorf("blobstore: list: %w", err))
		}
	}
}
