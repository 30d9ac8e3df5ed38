package auditseal

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"time"

	"fairbalance"
)

// DefaultInterval is how often the sealer looks for grown chains: no chain
// stays unsealed for longer while it grows.
const DefaultInterval = time.Minute

// Chains is what the sealer reads of the audit trail.
type Chains interface {
	AuditHeads(ctx context.Context) ([]fairbalance.AuditHead, error)
	AuditHashAt(ctx context.Context, orgID string, seq int64) (string, error)
}

// Config configures a Sealer.
type Config struct {
	// Chains is the audit trail (the SQL store's audit view).
	Chains Chains
	// Key signs the checkpoints.
	Key ed25519.PrivateKey
	// Logs are where checkpoints go; the first (the data directory's file)
	// is the one of record: a checkpoint counts as written once it holds
	// it. A failure of another is reported and does not stop the first.
	Logs []Log
	// Interval is the time between passes (DefaultInterval when zero).
	Interval time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Log receives what goes wrong (slog.Default when nil).
	Log *slog.Logger
	// Ticker makes the pass schedule (a time.Ticker when nil); tests give
	// a channel of their own.
	Ticker func(d time.Duration) (tick <-chan time.Time, stop func())
}

// Sealer writes the checkpoints. Its methods are safe for concurrent use;
// Run and Seal run one pass at a time.
type Sealer struct {
	cfg  Config
	keys map[string]ed25519.PublicKey
	kid  string
	pass sync.Mutex // one pass at a time

	mu      sync.Mutex
	last    map[string]fairbalance.AuditCheckpoint // newest sealed per organisation
	status  fairbalance.AuditSealStatus
	refused map[string]string
}

var _ fairbalance.AuditSealer = (*Sealer)(nil)

// New returns a sealer. It reads the first log to learn each chain's last
// checkpoint (signed by cfg.Key), so a restart does not seal unchanged
// chains again and goes on checking that the chains still match what was
// sealed before it. A log that cannot be read does not stop it (it is
// logged and kept in the status; every chain is then sealed afresh); only
// an incomplete Config does.
func New(ctx context.Context, cfg Config) (*Sealer, error) {
	if cfg.Chains == nil || len(cfg.Key) != ed25519.PrivateKeySize || len(cfg.Logs) == 0 {
		return nil, errors.New("auditseal: a sealer needs the chains, a key and a log")
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Ticker == nil {
		cfg.Ticker = func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}
	}
	pub := cfg.Key.Public().(ed25519.PublicKey)
	s := &Sealer{
		cfg:     cfg,
		kid:     fairbalance.AuditKeyID(pub),
		last:    map[string]fairbalance.AuditCheckpoint{},
		refused: map[string]string{},
	}
	s.keys = map[string]ed25519.PublicKey{s.kid: pub}
	places := make([]string, len(cfg.Logs))
	for i, l := range cfg.Logs {
		places[i] = l.Place()
	}
	s.status = fairbalance.AuditSealStatus{KeyID: s.kid, Interval: cfg.Interval, Places: places}
	err := cfg.Logs[0].Read(ctx, func(r Record) error {
		if r.Err != nil || r.Checkpoint.Verify(s.keys) != nil {
			return nil // verification reports these; sealing goes on from the good ones
		}
		if cur, ok := s.last[r.Checkpoint.OrgID]; !ok || r.Checkpoint.Seq >= cur.Seq {
			s.last[r.Checkpoint.OrgID] = r.Checkpoint
		}
		return nil
	})
	if err != nil {
		err = fmt.Errorf("read the checkpoints in the %s: %w", cfg.Logs[0].Place(), err)
		cfg.Log.Error("audit sealing: reading the last checkpoints failed", "err", err)
		s.status.Error, s.status.ErrorAt = err.Error(), cfg.Now()
	}
	return s, nil
}

// Run seals every Interval until ctx ends, then once more (the shutdown
// checkpoint, with a context of its own). Failures are logged and kept in
// the status; they never stop it.
func (s *Sealer) Run(ctx context.Context) {
	tick, stop := s.cfg.Ticker(s.cfg.Interval)
	defer stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
			defer cancel()
			_ = s.Seal(fctx)
			return
		case <-tick:
			_ = s.Seal(ctx)
		}
	}
}

// Seal runs one pass: every chain that grew since its last checkpoint gets
// a new one, written to every log. A chain that no longer matches its last
// checkpoint — shorter than it, or with another hash at the sealed entry —
// is not sealed (that would vouch for the changed chain): it is logged and
// reported in SealStatus().Refused. The error is the first failure, also
// logged and kept in the status.
func (s *Sealer) Seal(ctx context.Context) error {
	s.pass.Lock()
	defer s.pass.Unlock()
	heads, err := s.cfg.Chains.AuditHeads(ctx)
	if err != nil {
		return s.failed(fmt.Errorf("read the chain heads: %w", err))
	}
	now := s.cfg.Now()
	var batch []fairbalance.AuditCheckpoint
	for _, h := range heads {
		if h.Seq == 0 {
			continue
		}
		s.mu.Lock()
		last, sealed := s.last[h.OrgID]
		s.mu.Unlock()
		if sealed && last.Seq == h.Seq && last.Hash == h.Hash {
			continue
		}
		if sealed {
			reason, err := s.matches(ctx, h, last)
			if err != nil {
				return s.failed(err)
			}
			s.refuse(h.OrgID, reason)
			if reason != "" {
				continue
			}
		}
		cp := fairbalance.AuditCheckpoint{OrgID: h.OrgID, Seq: h.Seq, Hash: h.Hash, Entries: h.Seq, At: now}
		cp.Sign(s.cfg.Key)
		batch = append(batch, cp)
	}
	if len(batch) == 0 {
		return s.done(nil, now, false)
	}
	if err := s.cfg.Logs[0].Append(ctx, batch); err != nil {
		return s.failed(fmt.Errorf("write the checkpoints to the %s: %w", s.cfg.Logs[0].Place(), err))
	}
	s.mu.Lock()
	for _, cp := range batch {
		s.last[cp.OrgID] = cp
	}
	s.mu.Unlock()
	var rest error
	for _, l := range s.cfg.Logs[1:] {
		if err := l.Append(ctx, batch); err != nil && rest == nil {
			rest = fmt.Errorf("write the checkpoints to %s: %w", l.Place(), err)
		}
	}
	return s.done(rest, now, true)
}

// matches says why head h no longer matches the checkpoint last ("" when
// it does: the chain only grew).
func (s *Sealer) matches(ctx context.Context, h fairbalance.AuditHead, last fairbalance.AuditCheckpoint) (string, error) {
	when := last.At.UTC().Format(time.RFC3339)
	if h.Seq < last.Seq {
		return fmt.Sprintf("the chain ends at entry %d, before entry %d sealed on %s", h.Seq, last.Seq, when), nil
	}
	hash, err := s.cfg.Chains.AuditHashAt(ctx, h.OrgID, last.Seq)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return fmt.Sprintf("entry %d, sealed on %s, is missing", last.Seq, when), nil
	}
	if err != nil {
		return "", fmt.Errorf("read a sealed entry: %w", err)
	}
	if hash != last.Hash {
		return fmt.Sprintf("entry %d no longer has the hash sealed on %s", last.Seq, when), nil
	}
	return "", nil
}

// refuse records why orgID's chain is not sealed ("" clears it), logging a
// new reason once.
func (s *Sealer) refuse(orgID, reason string) {
	s.mu.Lock()
	prev := s.refused[orgID]
	if reason == "" {
		delete(s.refused, orgID)
	} else {
		s.refused[orgID] = reason
	}
	s.mu.Unlock()
	if reason != "" && reason != prev {
		s.cfg.Log.Error("audit chain no longer matches its checkpoint; not sealing it", "org", orgID, "reason", reason)
	}
}

func (s *Sealer) failed(err error) error {
	s.cfg.Log.Error("audit sealing failed", "err", err)
	s.mu.Lock()
	s.status.LastRun, s.status.Error, s.status.ErrorAt = s.cfg.Now(), err.Error(), s.cfg.Now()
	s.mu.Unlock()
	return err
}

func (s *Sealer) done(err error, at time.Time, sealed bool) error {
	if err != nil {
		s.cfg.Log.Error("audit sealing failed", "err", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status.LastRun = s.cfg.Now()
	if sealed {
		s.status.LastSealed = at
	}
	if err != nil {
		s.status.Error, s.status.ErrorAt = err.Error(), s.status.LastRun
	} else {
		s.status.Error, s.status.ErrorAt = "", time.Time{}
	}
	return err
}

// LastCheckpoint implements fairbalance.AuditSealer.
func (s *Sealer) LastCheckpoint(orgID string) (fairbalance.AuditCheckpoint, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp, ok := s.last[orgID]
	return cp, ok
}

// VerifyCheckpoint implements fairbalance.AuditSealer.
func (s *Sealer) VerifyCheckpoint(c *fairbalance.AuditCheckpoint) error { return c.Verify(s.keys) }

// SealStatus implements fairbalance.AuditSealer.
func (s *Sealer) SealStatus() fairbalance.AuditSealStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.status
	st.Places = append([]string(nil), st.Places...)
	st.Refused = maps.Clone(s.refused)
	return st
}

// String describes the sealer for the start-up log.
func (s *Sealer) String() string {
	return fmt.Sprintf("every %s to %s, key %s", s.cfg.Interval, strings.Join(s.status.Places, " and "), s.kid)
}
