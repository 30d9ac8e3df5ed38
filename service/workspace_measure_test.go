package service_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/dataapi"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// TestMeasureLargeTrail measures verify_audit_chain and a CSV export of the
// audit trail at scale. It runs only when FAIRBALANCE_MEASURE is set (to
// the number of entries, e.g. 1000000):
//
//	FAIRBALANCE_MEASURE=1000000 go test -run TestMeasureLargeTrail -v -timeout 60m ./service/
func TestMeasureLargeTrail(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FAIRBALANCE_MEASURE"))
	if n <= 0 {
		t.Skip("set FAIRBALANCE_MEASURE to the number of entries")
	}
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			org := m.orgs["own"]
			start := time.Now()
			fillTrail(t, m, backend, org, n)
			t.Logf("%s: filled %d entries in %v", backend, n, time.Since(start).Round(time.Millisecond))
			viewer := m.members["own"][fairbalance.RoleViewer]

			runtime.GC()
			start, cpu := time.Now(), cpuTime()
			v := call(t, m, viewer, "verify_audit_chain", nil)
			t.Logf("%s: verify_audit_chain over %v entries: %v in %v (this process's CPU %v; load average %s)", backend, v["checked"], v["ok"],
				time.Since(start).Round(time.Millisecond), (cpuTime() - cpu).Round(time.Millisecond), loadAvg())
			if v["ok"] != true {
				t.Fatalf("chain %v", v)
			}

			for _, sel := range []string{"select=*", "select=id,created_at,actor_email,action,object_type,object_id"} {
				runtime.GC()
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				var peak atomic.Uint64
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					var ms runtime.MemStats
					for {
						runtime.ReadMemStats(&ms)
						if ms.HeapInuse > peak.Load() {
							peak.Store(ms.HeapInuse)
						}
						select {
						case <-stop:
							return
						case <-time.After(20 * time.Millisecond):
						}
					}
				}()
				var out countingWriter
				start, cpu = time.Now(), cpuTime()
				err := m.data.ReadCSV(m.ctx, viewer, "audit_logs_v2", req(t, sel+"&order=id"), func(dataapi.CSVInfo) io.Writer { return &out })
				took, used := time.Since(start), cpuTime()-cpu
				close(stop)
				wg.Wait()
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: CSV %s: %d rows, %.1f MB in %v (%.0f rows/s; this process's CPU %v); heap in use %.1f MB before, peak %.1f MB",
					backend, sel, out.lines-1, float64(out.bytes)/1e6, took.Round(time.Millisecond), float64(out.lines-1)/took.Seconds(), used.Round(time.Millisecond),
					float64(base.HeapInuse)/1e6, float64(peak.Load())/1e6)
				if out.lines < int64(n) {
					t.Fatalf("%d lines", out.lines)
				}
			}
		})
	}
}

// cpuTime is the user and system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

type countingWriter struct{ bytes, lines int64 }

func (w *countingWriter) Write(b []byte) (int, error) {
	w.bytes += int64(len(b))
	for _, c := range b {
		if c == '\n' {
			w.lines++
		}
	}
	return len(b), nil
}

// fillTrail appends n realistic entries (rows before and after, as data
// API writes have them) to org's chain: hashed in Go, inserted in bulk.
func fillTrail(t *testing.T, m *matrixEnv, backend, org string, n int) {
	t.Helper()
	head, err := m.db.View().ListAudit(m.ctx, fairbalance.AuditFilter{OrgID: org, Limit: 1})
	if err != nil || len(head) != 1 {
		t.Fatalf("head %v %v", head, err)
	}
	prev, seq := head[0].Hash, head[0].ID
	t0 := head[0].CreatedAt
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	ts := func(tm time.Time) string {
		if backend == "postgres" {
			return q(tm.Format(time.RFC3339Nano))
		}
		return q(tm.Format("2006-01-02 15:04:05.999999999-07:00"))
	}
	const batch = 2000
	var b strings.Builder
	for i := 0; i < n; i += batch {
		b.Reset()
		b.WriteString("INSERT INTO audit_log (org_id, seq, actor_id, actor_email, action, object_type, object_id, before_data, after_data, meta, ip, user_agent, created_at, prev_hash, hash) VALUES ")
		for j := i; j < min(i+batch, n); j++ {
			seq++
			row := func(name string) json.RawMessage {
				r, _ := json.Marshal([]map[string]any{{"id": fmt.Sprintf("00000000-0000-4000-8000-%012d", j), "org_id": org, "role": "marketer",
					"full_name": name, "avatar_url": "", "created_at": "2026-11-22T10:00:00+00:00", "updated_at": "2026-11-22T10:00:00+00:00", "deactivated_at": nil}})
				return r
			}
			e := fairbalance.AuditEntry{ID: seq, OrgID: org, ActorID: "00000000-0000-4000-8000-000000000002", ActorEmail: "own-admin@example.com",
				Action: "profiles_v2.update", ObjectType: "profiles_v2", ObjectID: fmt.Sprintf("00000000-0000-4000-8000-%012d", j),
				Before: row(fmt.Sprintf("Member %d", j)), After: row(fmt.Sprintf("Member %d (renamed)", j)), Meta: json.RawMessage(`{"rows":1,"via":"data_api"}`),
				CreatedAt: t0.Add(time.Duration(j) * time.Millisecond), PrevHash: prev}
			if err := e.Normalize(); err != nil {
				t.Fatal(err)
			}
			e.Hash = e.ComputeHash()
			prev = e.Hash
			if j > i {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%s, %d, %s, %s, %s, %s, %s, %s, %s, %s, '', '', %s, %s, %s)", q(org), e.ID, q(e.ActorID), q(e.ActorEmail), q(e.Action), q(e.ObjectType), q(e.ObjectID),
				q(string(e.Before)), q(string(e.After)), q(string(e.Meta)), ts(e.CreatedAt), q(e.PrevHash), q(e.Hash))
		}
		if err := sqltest.Exec(m.ctx, m.db, b.String()); err != nil {
			t.Fatal(err)
		}
	}
	// The head moves in one step here (its trigger allows only single
	// steps), as a bulk import would.
	stmts := []string{"DROP TRIGGER IF EXISTS audit_chain_head_forward", fmt.Sprintf("UPDATE audit_chain_head SET seq = %d, hash = %s, created_at = %s WHERE org_id = %s", seq, q(prev), ts(t0.Add(time.Duration(n)*time.Millisecond)), q(org))}
	if backend == "postgres" {
		stmts = []string{"ALTER TABLE audit_chain_head DISABLE TRIGGER USER", stmts[1], "ALTER TABLE audit_chain_head ENABLE TRIGGER USER"}
	}
	for _, s := range stmts {
		if err := sqltest.Exec(m.ctx, m.db, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}
