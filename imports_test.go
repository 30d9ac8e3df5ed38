package fairbalance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The one-way import rule of the architecture, checked over the real
// package graph (go list): cmd → httpapi → service → dataapi → fairbalance;
// adapters (sqlstore, blobstore, mail, jobs) import only fairbalance and their
// drivers, and only cmd wires them in; the service layer knows no HTTP.

const module = "fairbalance"

// Groups of our packages, as the rules name them.
var (
	// libraries: pure helpers with no I/O of their own.
	libraries = []string{"fairbalance/auth", "fairbalance/pgrest", "fairbalance/pdftext", "fairbalance/samplepdf", "fairbalance/ratelimit", "fairbalance/anchor", "fairbalance/recordpdf", "fairbalance/compliance"}
	// adapters: the outside world behind the root package's ports.
	adapters = []string{"fairbalance/sqlstore", "fairbalance/blobstore", "fairbalance/mail", "fairbalance/auditseal", "fairbalance/jobs"}
	// testSupport: packages for tests only; the program never imports them.
	testSupport = []string{"fairbalance/sqlstore/storetest", "fairbalance/sqlstore/sqltest", "fairbalance/blobstore/blobtest"}
)

// importRule says which packages of ours a package may import (the
// standard library and, unless stdlibOnly, third-party packages are
// always allowed), and whether it may reach net/http through them.
type importRule struct {
	may        []string
	stdlibOnly bool
	noHTTP     bool
}

func with(groups ...[]string) []string { return slices.Concat(groups...) }

var importRules = map[string]importRule{
	"fairbalance":                          {stdlibOnly: true, noHTTP: true},
	"fairbalance/auth":                     {may: []string{module}},
	"fairbalance/pgrest":                   {may: []string{module}, noHTTP: true},
	"fairbalance/pdftext":                  {may: []string{module}},
	"fairbalance/samplepdf":                {may: []string{module}},
	"fairbalance/recordpdf":                {may: []string{module}},
	"fairbalance/ratelimit":                {may: []string{module}},
	"fairbalance/anchor":                   {may: []string{module}, noHTTP: true},
	"fairbalance/compliance":               {noHTTP: true},
	"fairbalance/dataapi":                  {may: with([]string{module}, libraries), noHTTP: true},
	"fairbalance/service":                  {may: with([]string{module, "fairbalance/dataapi"}, libraries), noHTTP: true},
	"fairbalance/httpapi":                  {may: with([]string{module, "fairbalance/dataapi", "fairbalance/service"}, libraries)},
	"fairbalance/sqlstore":                 {may: []string{module, "fairbalance/sqlstore/internal/rawkey"}},
	"fairbalance/sqlstore/internal/rawkey": {stdlibOnly: true},
	"fairbalance/blobstore":                {may: []string{module}},
	"fairbalance/mail":                     {may: []string{module}},
	"fairbalance/auditseal":                {may: []string{module}},
	"fairbalance/jobs":                     {may: []string{module}},
	"fairbalance/sqlstore/storetest":       {may: []string{module, "fairbalance/sqlstore", "fairbalance/sqlstore/sqltest"}},
	"fairbalance/sqlstore/sqltest":         {may: []string{module, "fairbalance/sqlstore", "fairbalance/sqlstore/internal/rawkey"}},
	"fairbalance/blobstore/blobtest":       {may: []string{module, "fairbalance/blobstore"}},
	"fairbalance/web":                      {stdlibOnly: true},
	"fairbalance/cmd/fairbalance":          {may: with([]string{module, "fairbalance/httpapi", "fairbalance/service", "fairbalance/dataapi", "fairbalance/web"}, libraries, adapters)},
	"fairbalance/bench/s3fake":             {},
}

type listedPackage struct {
	ImportPath string
	Standard   bool
	Imports    []string
}

// listPackages runs go list over the module: every package of ours (the
// Go packages npm may install under web/node_modules are not ours) and
// everything they import, by import path.
func listPackages(t *testing.T) (ours []string, all map[string]listedPackage) {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,Imports", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	all = map[string]listedPackage{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		all[p.ImportPath] = p
		if isOurs(p.ImportPath) {
			ours = append(ours, p.ImportPath)
		}
	}
	sort.Strings(ours)
	return ours, all
}

func isOurs(path string) bool {
	return (path == module || strings.HasPrefix(path, module+"/")) && !strings.Contains(path, "/node_modules/")
}

// checkImports returns every violation of the rules in the graph.
func checkImports(ours []string, all map[string]listedPackage) []string {
	var bad []string
	for _, path := range ours {
		rule, ok := importRules[path]
		if !ok {
			bad = append(bad, path+": a package the import rules do not place; add it to importRules")
			continue
		}
		for _, imp := range all[path].Imports {
			switch {
			case all[imp].Standard:
			case isOurs(imp):
				if !slices.Contains(rule.may, imp) {
					bad = append(bad, path+" imports "+imp)
				}
			case rule.stdlibOnly:
				bad = append(bad, path+" imports "+imp+", outside the standard library")
			}
		}
		if rule.noHTTP {
			if via := reachesHTTP(path, all); via != "" {
				bad = append(bad, path+" depends on net/http"+via)
			}
		}
	}
	// The program never depends on a package made for tests.
	for _, path := range ours {
		if slices.Contains(testSupport, path) {
			continue
		}
		for _, imp := range all[path].Imports {
			if slices.Contains(testSupport, imp) {
				bad = append(bad, path+" imports "+imp+", which is for tests only")
			}
		}
	}
	return bad
}

// reachesHTTP reports how path reaches net/http through itself and the
// packages of ours it imports ("" when it does not): the service layer
// must not know HTTP, neither directly nor through a package of ours.
func reachesHTTP(path string, all map[string]listedPackage) string {
	seen := map[string]bool{}
	var walk func(p, via string) string
	walk = func(p, via string) string {
		if seen[p] {
			return ""
		}
		seen[p] = true
		for _, imp := range all[p].Imports {
			if imp == "net/http" {
				if p == path {
					return " (imported directly)"
				}
				return " (through " + via + p + ")"
			}
		}
		for _, imp := range all[p].Imports {
			if isOurs(imp) {
				if r := walk(imp, via+p+" → "); r != "" {
					return r
				}
			}
		}
		return ""
	}
	return walk(path, "")
}

func TestImportRules(t *testing.T) {
	ours, all := listPackages(t)
	for _, want := range []string{module, "fairbalance/service", "fairbalance/dataapi", "fairbalance/httpapi", "fairbalance/sqlstore"} {
		if !slices.Contains(ours, want) {
			t.Fatalf("go list did not list %s: %v", want, ours)
		}
	}
	for _, v := range checkImports(ours, all) {
		t.Error(v)
	}
}

// The rules catch what they are for: the real graph with one violation of
// each kind added fails with the violation named.
func TestImportRulesCatchViolations(t *testing.T) {
	ours, all := listPackages(t)
	for _, c := range []struct{ pkg, imp, want string }{
		{"fairbalance/service", "net/http", "fairbalance/service depends on net/http (imported directly)"},
		{"fairbalance/pgrest", "net/http", "fairbalance/service depends on net/http (through "},
		{"fairbalance/sqlstore", "fairbalance/service", "fairbalance/sqlstore imports fairbalance/service"},
		{"fairbalance/dataapi", "fairbalance/httpapi", "fairbalance/dataapi imports fairbalance/httpapi"},
		{"fairbalance/httpapi", "fairbalance/sqlstore", "fairbalance/httpapi imports fairbalance/sqlstore"},
		{"fairbalance/service", "fairbalance/mail", "fairbalance/service imports fairbalance/mail"},
		{"fairbalance", "github.com/golang-jwt/jwt/v5", "fairbalance imports github.com/golang-jwt/jwt/v5, outside the standard library"},
		{"fairbalance/cmd/fairbalance", "fairbalance/sqlstore/sqltest", "fairbalance/cmd/fairbalance imports fairbalance/sqlstore/sqltest, which is for tests only"},
	} {
		broken := map[string]listedPackage{}
		for k, v := range all {
			broken[k] = v
		}
		p := broken[c.pkg]
		p.Imports = append(slices.Clone(p.Imports), c.imp)
		broken[c.pkg] = p
		if _, ok := broken[c.imp]; !ok {
			broken[c.imp] = listedPackage{ImportPath: c.imp}
		}
		got := checkImports(ours, broken)
		if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, c.want) }) {
			t.Errorf("%s importing %s: got %q, want %q… among them", c.pkg, c.imp, got, c.want)
		}
	}
}
