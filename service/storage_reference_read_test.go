package service_test

import (
	"bytes"
	"io"
	"testing"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The reference viewer reads a reference's PDF with the reader's own
// session: whoever reads a reference reads its file — every member of its
// organisation whatever the role, a demo session too — and nobody else
// does, by path, by metadata or by signed URL. Both halves are checked for
// every caller, so the two rules cannot drift apart.
func TestReferenceFileReadMatrix(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m, s := newContentStorageEnv(t, backend, "disk")
			marketer := m.members["own"][fairbalance.RoleMarketer]
			pdf := testPDF(t, "Methods and population.", "PASI 75 was reached by 71% of patients\nat week 16.")
			ref := mustInsert(t, m, marketer, "references", map[string]any{"title": "ZEPHYR-1 trial", "kind": "clinical_study", "status": "withdrawn"})
			path := upload(t, m, s, marketer, "reference-files", "zephyr-1.pdf", pdf)
			if _, err := callErr(m, marketer, "attach_reference_file", map[string]any{"reference_id": ref["id"], "file_path": path, "file_name": "zephyr-1.pdf"}); err != nil {
				t.Fatal(err)
			}

			callers := map[string]fairbalance.Caller{}
			for _, org := range []string{"own", "other"} {
				for _, role := range fairbalance.Roles {
					callers[org+" "+role] = m.members[org][role]
					demo := m.members[org][role]
					demo.Demo = true
					callers[org+" "+role+" (demo session)"] = demo
				}
			}
			for who, c := range callers {
				rows := readRows(t, m, c, "references", "select=file_bucket,file_path&id=eq."+ref["id"].(string))
				readsRow := len(rows) == 1
				if readsRow != (c.OrgID == m.orgs["own"]) {
					t.Errorf("%s reads the reference: %v", who, readsRow)
				}
				if readsRow && (rows[0]["file_bucket"] != "reference-files" || rows[0]["file_path"] != path) {
					t.Errorf("%s reads the reference's file as %v", who, rows[0])
				}
				readsFile := readFile(t, s, c, path, pdf)
				if readsFile != readsRow {
					t.Errorf("%s reads the reference: %v, its file: %v", who, readsRow, readsFile)
				}
			}
			if readFile(t, s, fairbalance.Caller{Role: "anon"}, path, pdf) {
				t.Error("an anonymous caller read the file")
			}
		})
	}
}

// readFile reports whether c opens the object path of reference-files
// with the bytes want, reads its metadata and signs a URL for it; it
// fails the test when c does some of these and not the others, or gets an
// answer other than "not found".
func readFile(t *testing.T, s *service.Storage, c fairbalance.Caller, path string, want []byte) bool {
	t.Helper()
	ctx := t.Context()
	notFound := func(what string, err error) {
		t.Helper()
		if e := fairbalance.AsError(err); e == nil || e.Kind != fairbalance.KindNotFound {
			t.Errorf("%s: %v, want not found", what, err)
		}
	}
	_, blob, openErr := s.Open(ctx, c, "reference-files", path)
	if openErr == nil {
		got, err := io.ReadAll(blob)
		blob.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("the file's bytes differ: %v", err)
		}
	}
	_, infoErr := s.Info(ctx, c, "reference-files", path)
	_, signErr := s.SignURL(ctx, c, "reference-files", path, 60)
	reads := openErr == nil
	if (infoErr == nil) != reads || (signErr == nil) != reads {
		t.Errorf("open %v, info %v, signed URL %v", openErr, infoErr, signErr)
	}
	if !reads {
		for what, err := range map[string]error{"open": openErr, "info": infoErr, "signed URL": signErr} {
			notFound(what, err)
		}
	}
	return reads
}
