package validate

import (
	"os/exec"
	"strings"
	"testing"
)

// TestIndependentOfTransform: every package the checker's code (tests
// aside) depends on, directly or not, is the standard library, one of the
// libraries it is built on, or one of the few packages of the project it
// may read: none is transform/ or anything that imports it (it would be
// listed), so the recomputation cannot share a bug with what it checks.
// The one package of the project it shares with the builder is
// internal/sourcetext, the reviewed fixed text both print (its loader:
// the checker fills the text's templates itself).
func TestIndependentOfTransform(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const project = "github.com/leadgreen/greentokens/"
	allowed := []string{
		project + "validate", project + "schemas", project + "internal/regfile", project + "internal/sourcetext",
		"github.com/santhosh-tekuri/jsonschema/v6", // every schema check
		"golang.org/x/text/",                       // the jsonschema library's messages
		"github.com/go-json-experiment/json/",      // jsontext: keys given twice
		"golang.org/x/mod/",                        // the generator's module path and version (generator.go)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 3 {
		t.Fatalf("go list gave %q", out)
	}
	for _, p := range deps {
		ok := false
		for _, a := range allowed {
			ok = ok || p == a || strings.HasSuffix(a, "/") && strings.HasPrefix(p, a) || strings.HasPrefix(p, a+"/")
		}
		if !ok || p == project+"transform" || strings.HasPrefix(p, project+"internal/jsonvalid") {
			t.Errorf("the checker depends on %s", p)
		}
	}
}
