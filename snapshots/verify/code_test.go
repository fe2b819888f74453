package verify

import (
	"testing"

	"github.com/leadgreen/greentokens/format"
)

func TestSameCode(t *testing.T) {
	a := format.Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Go: "go1.26.0"}
	for _, tc := range []struct {
		name string
		b    format.Generator
		want bool
	}{
		{"same revision, other Go", format.Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Go: "go1.26.3"}, true},
		{"other revision", format.Generator{Module: "m", Version: "(devel)", Revision: "bbbb"}, false},
		{"same revision, modified", format.Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Modified: true}, false},
		{"no revision on one side", format.Generator{Module: "m", Version: "(devel)"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameCode(a, tc.b); got != tc.want {
				t.Errorf("sameCode = %v, want %v", got, tc.want)
			}
		})
	}
	// A checkout build of a commit (Go 1.24 and later stamp a
	// pseudo-version) and "go run MODULE@REV" of it, which records the
	// same pseudo-version and no revision.
	const pseudo = "v0.0.0-20261130183850-aabf57cb9fad"
	a = format.Generator{Module: "m", Version: pseudo, Revision: "aabf57cb9fad6ce251d98316393be669bb7c5027", Go: "go1.26.8"}
	for _, tc := range []struct {
		name string
		b    format.Generator
		want bool
	}{
		{"go run MODULE@REV of the same commit", format.Generator{Module: "m", Version: pseudo}, true},
		{"another commit", format.Generator{Module: "m", Version: "v0.0.0-20261201000000-0123456789ab"}, false},
		{"the same commit with changes", format.Generator{Module: "m", Version: pseudo + "+dirty", Revision: a.Revision, Modified: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameCode(a, tc.b); got != tc.want {
				t.Errorf("sameCode = %v, want %v", got, tc.want)
			}
		})
	}
	// A checkout build of a commit and "go run MODULE@REV" of it: the same
	// pseudo-version, a revision on one side only.
	checkout := format.Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9", Revision: "b361426175c9c06706497dad518670edd89772c1"}
	goRun := format.Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9"}
	if !sameCode(checkout, goRun) || !sameCode(goRun, checkout) {
		t.Error("a checkout build and go run MODULE@REV of the same commit are not the same code")
	}
	if dirty := (format.Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9+dirty"}); sameCode(dirty, dirty) {
		t.Error("a +dirty version is the same code as itself")
	}
	devel := format.Generator{Module: "m", Version: "(devel)"}
	if sameCode(devel, devel) {
		t.Error("two (devel) builds without a revision are the same code; nothing says so")
	}
}

// TestRerunCommandQuotes: the printed command can be pasted into a shell.
func TestRerunCommandQuotes(t *testing.T) {
	g := format.Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Revision: "aabf57cb9fad6ce251d98316393be669bb7c5027"}
	for _, tc := range []struct{ dir, want string }{
		{"out/2026-09-27", "out/2026-09-27"},
		{"/srv/green tokens/2026-09-27", "'/srv/green tokens/2026-09-27'"},
		{"it's/2026-09-27", `'it'\''s/2026-09-27'`},
		{"$HOME/x", "'$HOME/x'"},
	} {
		want := "go run github.com/leadgreen/greentokens/cmd/greentokens@" + g.Revision + " verify " + tc.want
		if got := rerunCommand(g, "verify", tc.dir); got != want {
			t.Errorf("rerunCommand(verify %q) = %q, want %q", tc.dir, got, want)
		}
	}
}

// TestRerunCommand: the command that verifies with the code that built a
// snapshot names its revision, or its published version, and is "" when
// neither names fetchable code.
func TestRerunCommand(t *testing.T) {
	const rev = "4c91eaa0123456789abcdef0123456789abcdef0"
	const m = "github.com/leadgreen/greentokens"
	for _, tc := range []struct {
		name  string
		g     format.Generator
		rerun string
	}{
		{"a checkout, clean", format.Generator{Module: m, Version: "(devel)", Revision: rev, Go: "go1.26.0"},
			"go run " + m + "/cmd/greentokens@" + rev + " verify out/2026-09-27"},
		{"a checkout with changes", format.Generator{Module: m, Version: "(devel)", Revision: rev, Modified: true, Go: "go1.26.0"}, ""},
		{"go run MODULE@VERSION: a version, no revision", format.Generator{Module: m, Version: "v0.0.0-20261130175648-4c91eaa01234", Go: "go1.26.1"},
			"go run " + m + "/cmd/greentokens@v0.0.0-20261130175648-4c91eaa01234 verify out/2026-09-27"},
		{"built without VCS stamping", format.Generator{Module: m, Version: "(devel)", Go: "go1.26.0"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rerunCommand(tc.g, "verify", "out/2026-09-27"); got != tc.rerun {
				t.Errorf("rerunCommand: %q, want %q", got, tc.rerun)
			}
		})
	}
}
