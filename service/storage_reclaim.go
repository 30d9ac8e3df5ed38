package service

import (
	"context"
	"log/slog"
	"regexp"
	"time"
)

// Orphan blobs. An upload writes its blob first and the row second, and
// cleans up when the row cannot be written; a crash (or a failed delete)
// between the two leaves a blob no row names. The reclaimer lists the
// blob store and deletes such blobs once they are OrphanAge old.
//
// Safety: a blob is deleted only when its key has the shape the storage
// service gives every blob (so an S3 bucket shared with other things
// loses nothing else), it is older than OrphanAge (an upload in flight
// writes its row right after its blob: the hour covers the gap, and clock
// differences with an S3 store) and no row names it, checked just before
// the deletes of its batch. Deletes are idempotent, so reclaimers of
// several instances may run at the same time.

// OrphanAge is how old a blob without a row must be to be reclaimed.
const OrphanAge = time.Hour

// DefaultReclaimBatch is how many blobs one query checks, and so the most
// deletes between two checks.
const DefaultReclaimBatch = 500

// blobKeyPattern is the shape of blobKey: <first two hex digits>/<uuid>.
var blobKeyPattern = regexp.MustCompile(`^([0-9a-f]{2})/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`)

// ownBlobKey reports whether key is one blobKey makes.
func ownBlobKey(key string) bool {
	m := blobKeyPattern.FindStringSubmatch(key)
	return m != nil && m[2][:2] == m[1]
}

// Reclaimed is what a pass of the reclaimer did.
type Reclaimed struct {
	// Listed counts the blobs listed; Foreign those whose keys the
	// storage service does not make (never touched); Young those newer
	// than OrphanAge (not checked).
	Listed, Foreign, Young int
	// Checked counts the blobs looked up in the database, in Batches
	// queries; InUse those a row names.
	Checked, Batches, InUse int
	// Deleted counts the orphans deleted, of DeletedBytes in all; Failed
	// those whose delete failed (left for the next pass).
	Deleted      int
	DeletedBytes int64
	Failed       int
}

// ReclaimOrphans makes one pass over the blob store: every blob of the
// storage service older than OrphanAge that no row names is deleted, in
// batches of ReclaimBatch. A failed delete is logged and left for the next
// pass; a failed listing or lookup ends the pass with the error.
func (s *Storage) ReclaimOrphans(ctx context.Context) (Reclaimed, error) {
	var res Reclaimed
	size := s.ReclaimBatch
	if size <= 0 {
		size = DefaultReclaimBatch
	}
	cutoff := s.Now().Add(-OrphanAge)
	batch := make(map[string]int64, size)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		keys := make([]string, 0, len(batch))
		for k := range batch {
			keys = append(keys, k)
		}
		res.Checked += len(keys)
		res.Batches++
		used, err := s.store.View().BlobKeysInUse(ctx, keys)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if used[k] {
				res.InUse++
				continue
			}
			if err := s.blobs.Delete(ctx, k); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				res.Failed++
				slog.Warn("storage: an orphan blob could not be deleted", "key", k, "err", err)
				continue
			}
			res.Deleted++
			res.DeletedBytes += batch[k]
		}
		clear(batch)
		return nil
	}
	for b, err := range s.blobs.List(ctx, "") {
		if err != nil {
			return res, err
		}
		res.Listed++
		switch {
		case !ownBlobKey(b.Key):
			res.Foreign++
			continue
		case !b.ModTime.Before(cutoff):
			res.Young++
			continue
		}
		batch[b.Key] = b.Size
		if len(batch) >= size {
			if err := flush(); err != nil {
				return res, err
			}
		}
	}
	return res, flush()
}

// RunReclaimer runs ReclaimOrphans after delay, then every interval, until
// ctx ends (a pass in progress stops with it). Each pass that deleted or
// failed to delete something is logged at info level, the others at debug.
func (s *Storage) RunReclaimer(ctx context.Context, log *slog.Logger, delay, interval time.Duration) {
	t := time.NewTimer(delay)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		start := time.Now()
		res, err := s.ReclaimOrphans(ctx)
		attrs := []any{"deleted", res.Deleted, "bytes", res.DeletedBytes, "failed", res.Failed, "listed", res.Listed,
			"in_use", res.InUse, "young", res.Young, "foreign", res.Foreign, "took", time.Since(start).Round(time.Millisecond)}
		switch {
		case ctx.Err() != nil:
			log.Info("storage: orphan blob pass interrupted by shutdown", attrs...)
			return
		case err != nil:
			log.Warn("storage: orphan blob pass failed (retried at the next)", append(attrs, "err", err)...)
		case res.Deleted > 0 || res.Failed > 0:
			log.Info("storage: orphan blobs reclaimed", attrs...)
		default:
			log.Debug("storage: no orphan blobs", attrs...)
		}
		t.Reset(interval)
	}
}
