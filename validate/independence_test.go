package validate

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestIndependentOfTransform: every package the checker's code (tests
// aside) depends on, directly or not, is the standard library, one of the
// libraries it is built on, or one of the few packages of the project it
// may read: none is transform/ or anything that imports it (it would be
// listed), so the recomputation cannot share a bug with what it checks.
// The Parquet reader (parquet-go) comes with its own dependencies
// (codecs, protobuf, geometry types), which are allowed as its.
// The one package of the project it shares with the builder is
// internal/sourcetext, the reviewed fixed text both print (its loader:
// the checker fills the text's templates itself).
func TestIndependentOfTransform(t *testing.T) {
	list := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		return strings.Fields(string(out))
	}
	const parquetReader = "github.com/parquet-go/parquet-go"
	reader := list(parquetReader)
	const project = "github.com/leadgreen/greentokens/"
	allowed := []string{
		project + "validate", project + "schemas", project + "internal/regfile", project + "internal/sourcetext",
		"github.com/santhosh-tekuri/jsonschema/v6", // every schema check
		"golang.org/x/text/",                       // the jsonschema library's messages
		"github.com/go-json-experiment/json/",      // jsontext: keys given twice
		"golang.org/x/mod/",                        // the generator's module path and version (generator.go)
		parquetReader,                              // the exports' Parquet files read back (exports.go)
	}
	deps := list(".")
	if len(deps) < 3 {
		t.Fatalf("go list gave %q", deps)
	}
	for _, p := range deps {
		ok := slices.Contains(reader, p) && !strings.HasPrefix(p, project)
		for _, a := range allowed {
			ok = ok || p == a || strings.HasSuffix(a, "/") && strings.HasPrefix(p, a) || strings.HasPrefix(p, a+"/")
		}
		if !ok || p == project+"transform" || strings.HasPrefix(p, project+"internal/jsonvalid") {
			t.Errorf("the checker depends on %s", p)
		}
	}
}
