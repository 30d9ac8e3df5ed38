package service_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/service"
)

// stringLit is the value of a string literal expression, if e is one.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// parseDir parses the non-test Go files of a directory.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// recordedActions finds the actions the service layer names where it
// writes an audit entry or an identity event: the literal action of an
// audit(ctx, tx, "action", …) call, of an AuditEntry{Action: "…"} or
// AuthEvent{Action: "…"}, and a literal assigned to a variable named
// action. (Actions named by a constant of the root package are checked
// through the constants.)
func recordedActions(files []*ast.File) map[string]bool {
	found := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "audit" && len(n.Args) >= 3 {
					if s, ok := stringLit(n.Args[2]); ok {
						found[s] = true
					}
				}
			case *ast.CompositeLit:
				sel, ok := n.Type.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "AuditEntry" && sel.Sel.Name != "AuthEvent") {
					return true
				}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Action" {
							if s, ok := stringLit(kv.Value); ok {
								found[s] = true
							}
						}
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && id.Name == "action" && i < len(n.Rhs) {
						if s, ok := stringLit(n.Rhs[i]); ok {
							found[s] = true
						}
					}
				}
			}
			return true
		})
	}
	return found
}

// actionConstants are the string constants of the root package whose
// names begin with "Action".
func actionConstants(files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Action") || i >= len(vs.Values) {
						continue
					}
					if s, ok := stringLit(vs.Values[i]); ok {
						out[name.Name] = s
					}
				}
			}
		}
	}
	return out
}

// Every action the server records is in AuditVocabulary, the list the web
// app words for people: an action written in the service layer or named by
// a constant of the root package but missing from it fails here (add it to
// fairbalance.AuthEventActions or the server's actions, then run
// `make generate` and give it a sentence in web/src/entities/audit).
func TestAuditVocabularyHoldsEveryRecordedAction(t *testing.T) {
	vocab := service.AuditVocabulary(service.NewRegistry(nil, nil).Tables())
	has := func(a string) bool { _, ok := slices.BinarySearch(vocab, a); return ok }

	found := recordedActions(parseDir(t, "."))
	// The patterns must find the service layer's audit calls at all.
	for _, a := range []string{"login", "logout", "user_signedup", "factor_verified", "operator_granted", "workspace_settings_updated", "login_failed"} {
		if !found[a] {
			t.Errorf("the scan did not find %q in the service layer", a)
		}
	}
	for a := range found {
		if !has(a) {
			t.Errorf("the service layer records %q, which is not in the audit vocabulary", a)
		}
	}
	consts := actionConstants(parseDir(t, ".."))
	if consts["ActionAssetCreated"] != fairbalance.ActionAssetCreated || consts["ActionObjectCreated"] != fairbalance.ActionObjectCreated {
		t.Fatalf("the scan of the root package's constants missed some: %v", consts)
	}
	for name, a := range consts {
		if !has(a) {
			t.Errorf("fairbalance.%s = %q is not in the audit vocabulary", name, a)
		}
	}

	// The data API's writes: a table's own names, else "<table>.<op>".
	for _, a := range []string{"asset_created", "product_deleted", "claim_reference_linked", "claim_references.update", "profiles_v2.update", "orgs.insert", "workspace_settings.update"} {
		if !has(a) {
			t.Errorf("%q is not in the audit vocabulary", a)
		}
	}
	// The audit trail's own shapes record nothing about themselves, and
	// client-reported actions are not the server's.
	for _, a := range []string{"audit_logs_v2.insert", "audit_logs.insert", "onboarding_completed", "organization_created"} {
		if has(a) {
			t.Errorf("%q is in the audit vocabulary", a)
		}
	}
	if !slices.IsSorted(vocab) || len(slices.Compact(slices.Clone(vocab))) != len(vocab) {
		t.Errorf("the vocabulary is not sorted and unique: %v", vocab)
	}
}
