package snapshots

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// slow marks a slow check (the 10,000-model scale and memory test, the
// tests that run the built command as processes, every upstream version):
// under -short it is skipped. "make test" runs go test -short, the fast
// set; "make scale" runs exactly these (the Makefile's SLOW_TESTS), and CI
// runs both.
func slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: run by make scale")
	}
}

// TestSlowTestsAreInMakeScale: every test that calls slow is in the
// Makefile's SLOW_TESTS, so that make test and make scale together run
// every test.
func TestSlowTestsAreInMakeScale(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^SLOW_TESTS\s*[:?]?=\s*(.+)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no SLOW_TESTS line")
	}
	listed := strings.Split(strings.Trim(strings.TrimSpace(string(m[1])), "^$()'\""), "|")
	files, _ := os.ReadDir(".")
	re := regexp.MustCompile(`func (Test\w+)\(t \*testing\.T\) \{\n\tslow\(t\)`)
	var marked []string
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, sm := range re.FindAllSubmatch(b, -1) {
			marked = append(marked, string(sm[1]))
		}
	}
	slices.Sort(marked)
	slices.Sort(listed)
	if !slices.Equal(marked, listed) {
		t.Errorf("tests marked slow: %q; the Makefile's SLOW_TESTS: %q", marked, listed)
	}
}
