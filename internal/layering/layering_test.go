package layering

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	// The packages the tests look at, imported so that a change to any of
	// them builds this test again rather than reusing its cached result.
	_ "github.com/leadgreen/greentokens/api"
	_ "github.com/leadgreen/greentokens/mcpserver"
	_ "github.com/leadgreen/greentokens/mcpserver/mcptest"
	_ "github.com/leadgreen/greentokens/site"
	_ "github.com/leadgreen/greentokens/site/chart"
)

const project = "github.com/leadgreen/greentokens/"

// imports returns the project's packages each package of patterns imports
// directly, outside its tests, by import path without the module's prefix.
func imports(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	args := []string{"list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}"}
	for _, p := range patterns {
		args = append(args, project+p)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	got := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, ok := strings.CutPrefix(f[0], project)
		if !ok {
			t.Fatalf("go list gave %q", line)
		}
		got[pkg] = []string{}
		for _, imp := range f[1:] {
			if p, ok := strings.CutPrefix(imp, project); ok {
				got[pkg] = append(got[pkg], p)
			}
		}
	}
	return got
}

// within reports whether pkg is root or a package under it.
func within(pkg, root string) bool { return pkg == root || strings.HasPrefix(pkg, root+"/") }

func TestServingReadsThroughCatalog(t *testing.T) {
	got := imports(t, "api/...", "mcpserver/...", "site/...")
	var listed []string
	for pkg := range got {
		listed = append(listed, pkg)
	}
	slices.Sort(listed)
	if want := []string{"api", "mcpserver", "mcpserver/mcptest", "site", "site/chart"}; !slices.Equal(listed, want) {
		t.Fatalf("the serving packages are %v, this test imports %v: import the new ones above", listed, want)
	}
	for pkg, deps := range got {
		for _, dep := range deps {
			for _, below := range []string{"snapshots", "fetch", "validate"} {
				if within(dep, below) {
					t.Errorf("%s imports %s: serving reads snapshots only through catalog", pkg, dep)
				}
			}
		}
	}
}

// servingImports are the project's packages each serving package may import
// outside its tests: the API and the MCP server reach the index through
// catalog alone (its published types, encoder and wording too), the API
// besides serves the schemas and mounts the MCP server, and mcptest checks
// the tools' answers against catalogtest's snapshots; the site reads through
// catalog and render and draws with site/chart.
var servingImports = map[string][]string{
	"api":               {"catalog", "format", "mcpserver", "schemas"},
	"mcpserver":         {"catalog", "format", "schemas"},
	"mcpserver/mcptest": {"catalog", "catalog/catalogtest", "format", "schemas"},
	"site":              {"catalog", "format", "render", "site/chart"},
	"site/chart":        {"catalog", "render"},
}

func TestServingImportsOnlyCatalogAndItsOwn(t *testing.T) {
	for pkg, deps := range imports(t, "api/...", "mcpserver/...", "site/...") {
		allowed, ok := servingImports[pkg]
		if !ok {
			t.Errorf("%s: a new serving package; say in servingImports which of the project's packages it may import", pkg)
			continue
		}
		for _, dep := range deps {
			if !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s; it imports only %s of the project's packages", pkg, dep, strings.Join(allowed, ", "))
			}
		}
	}
}
