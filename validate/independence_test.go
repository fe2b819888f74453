package validate

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestIndependentOfTransform: the package's code (tests aside) imports
// nothing of transform/ but the reviewed fixed text in transform/sourcetext,
// so the recomputation cannot share a bug with what it checks.
func TestIndependentOfTransform(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	const transform = "github.com/leadgreen/greentokens/transform"
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if (p == transform || strings.HasPrefix(p, transform+"/")) && p != transform+"/sourcetext" {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
