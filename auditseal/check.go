package auditseal

import (
	"context"
	"crypto/ed25519"
	"sort"

	"fairbalance"
)

// Checked is what the checkpoint logs assert, once their signatures are
// checked: the seals to verify each chain against (see
// fairbalance.AuditStore.VerifyAudit) and the records that are not good
// checkpoints.
type Checked struct {
	// Records counts every record read, good or bad, duplicates included.
	Records int
	// Checkpoints counts the good checkpoints, each once however many logs
	// hold it.
	Checkpoints int
	// Seals are the good checkpoints' seals by organisation, in entry
	// order, each (entry, hash) once with the time it was first sealed.
	Seals map[string][]fairbalance.AuditSeal
	// Last is each organisation's newest good checkpoint (highest entry).
	Last map[string]fairbalance.AuditCheckpoint
	// Count is the number of good checkpoints by organisation.
	Count map[string]int
	// Bad lists the records that are not good checkpoints: unreadable, or
	// with a signature that does not verify, or by an unknown key.
	Bad []Bad
}

// Bad is a record that is not a good checkpoint.
type Bad struct {
	Source string
	// Checkpoint is what the record says (empty when unreadable).
	Checkpoint fairbalance.AuditCheckpoint
	Err        error
}

// Check reads every log and checks every checkpoint's signature against
// keys (by key id). Reading stops at the first log that cannot be read.
func Check(ctx context.Context, logs []Log, keys map[string]ed25519.PublicKey) (*Checked, error) {
	c := &Checked{Seals: map[string][]fairbalance.AuditSeal{}, Last: map[string]fairbalance.AuditCheckpoint{}, Count: map[string]int{}}
	type sealKey struct {
		org  string
		seq  int64
		hash string
	}
	seen := map[string]bool{} // signatures: one checkpoint held by several logs
	first := map[sealKey]int{}
	for _, l := range logs {
		err := l.Read(ctx, func(r Record) error {
			c.Records++
			if r.Err != nil {
				c.Bad = append(c.Bad, Bad{Source: r.Source, Err: r.Err})
				return nil
			}
			cp := r.Checkpoint
			if err := cp.Verify(keys); err != nil {
				c.Bad = append(c.Bad, Bad{Source: r.Source, Checkpoint: cp, Err: err})
				return nil
			}
			if seen[cp.Sig] {
				return nil
			}
			seen[cp.Sig] = true
			c.Checkpoints++
			c.Count[cp.OrgID]++
			if last, ok := c.Last[cp.OrgID]; !ok || cp.Seq > last.Seq || cp.Seq == last.Seq && cp.At.After(last.At) {
				c.Last[cp.OrgID] = cp
			}
			k := sealKey{cp.OrgID, cp.Seq, cp.Hash}
			if i, ok := first[k]; ok {
				if s := &c.Seals[cp.OrgID][i]; cp.At.Before(s.At) {
					s.At = cp.At
				}
				return nil
			}
			first[k] = len(c.Seals[cp.OrgID])
			c.Seals[cp.OrgID] = append(c.Seals[cp.OrgID], cp.Seal())
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, s := range c.Seals {
		sort.SliceStable(s, func(i, j int) bool { return s[i].Seq < s[j].Seq })
	}
	return c, nil
}
