package snapshots

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGeneratorFromBuildInfo(t *testing.T) {
	const rev = "4c91eaa0123456789abcdef0123456789abcdef0"
	for _, tc := range []struct {
		name     string
		bi       debug.BuildInfo
		want     Generator
		rerun    string
		describe string
	}{
		{
			name: "a checkout, clean",
			bi: debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}},
			want:     Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Revision: rev, Go: "go1.26.0"},
			rerun:    "go run github.com/leadgreen/greentokens/cmd/greentokens@" + rev + " verify out/2026-09-27",
			describe: "github.com/leadgreen/greentokens (devel) revision " + rev + " go1.26.0",
		},
		{
			name: "a checkout with changes",
			bi: debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}},
			want:     Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Revision: rev, Modified: true, Go: "go1.26.0"},
			describe: "github.com/leadgreen/greentokens (devel) revision " + rev + " (modified) go1.26.0",
		},
		{
			name:     "go run MODULE@VERSION: a version, no revision",
			bi:       debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "v0.0.0-20261130175648-4c91eaa01234"}},
			want:     Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-20261130175648-4c91eaa01234", Go: "go1.26.1"},
			rerun:    "go run github.com/leadgreen/greentokens/cmd/greentokens@v0.0.0-20261130175648-4c91eaa01234 verify out/2026-09-27",
			describe: "github.com/leadgreen/greentokens v0.0.0-20261130175648-4c91eaa01234 (no VCS revision recorded) go1.26.1",
		},
		{
			name:     "built without VCS stamping",
			bi:       debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "(devel)"}},
			want:     Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Go: "go1.26.0"},
			describe: "github.com/leadgreen/greentokens (devel) (no VCS revision recorded) go1.26.0",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := generatorOf(&tc.bi)
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("generator (-want +got):\n%s", diff)
			}
			if got := g.RerunCommand("verify", "out/2026-09-27"); got != tc.rerun {
				t.Errorf("RerunCommand: %q, want %q", got, tc.rerun)
			}
			if got := g.String(); got != tc.describe {
				t.Errorf("String: %q, want %q", got, tc.describe)
			}
		})
	}
}

func TestGeneratorSameCode(t *testing.T) {
	a := Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Go: "go1.26.0"}
	for _, tc := range []struct {
		name string
		b    Generator
		want bool
	}{
		{"same revision, other Go", Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Go: "go1.26.3"}, true},
		{"other revision", Generator{Module: "m", Version: "(devel)", Revision: "bbbb"}, false},
		{"same revision, modified", Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Modified: true}, false},
		{"no revision on one side", Generator{Module: "m", Version: "(devel)"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.SameCode(tc.b); got != tc.want {
				t.Errorf("SameCode = %v, want %v", got, tc.want)
			}
		})
	}
	// A checkout build of a commit (Go 1.24 and later stamp a
	// pseudo-version) and "go run MODULE@REV" of it, which records the
	// same pseudo-version and no revision.
	const pseudo = "v0.0.0-20261130183850-aabf57cb9fad"
	a = Generator{Module: "m", Version: pseudo, Revision: "aabf57cb9fad6ce251d98316393be669bb7c5027", Go: "go1.26.8"}
	for _, tc := range []struct {
		name string
		b    Generator
		want bool
	}{
		{"go run MODULE@REV of the same commit", Generator{Module: "m", Version: pseudo}, true},
		{"another commit", Generator{Module: "m", Version: "v0.0.0-20261201000000-0123456789ab"}, false},
		{"the same commit with changes", Generator{Module: "m", Version: pseudo + "+dirty", Revision: a.Revision, Modified: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.SameCode(tc.b); got != tc.want {
				t.Errorf("SameCode = %v, want %v", got, tc.want)
			}
		})
	}
	// A checkout build of a commit and "go run MODULE@REV" of it: the same
	// pseudo-version, a revision on one side only.
	checkout := Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9", Revision: "b361426175c9c06706497dad518670edd89772c1"}
	goRun := Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9"}
	if !checkout.SameCode(goRun) || !goRun.SameCode(checkout) {
		t.Error("a checkout build and go run MODULE@REV of the same commit are not the same code")
	}
	if dirty := (Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9+dirty"}); dirty.SameCode(dirty) {
		t.Error("a +dirty version is the same code as itself")
	}
	devel := Generator{Module: "m", Version: "(devel)"}
	if devel.SameCode(devel) {
		t.Error("two (devel) builds without a revision are the same code; nothing says so")
	}
}

// TestThisGenerator: the running code is described from its build
// information, never an empty record.
func TestThisGenerator(t *testing.T) {
	g := ThisGenerator()
	if g.Module == "" || g.Version == "" || g.Go == "" {
		t.Errorf("ThisGenerator() = %+v; want module, version and Go version", g)
	}
}

// TestRerunCommandQuotes: the printed command can be pasted into a shell.
func TestRerunCommandQuotes(t *testing.T) {
	g := Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Revision: "aabf57cb9fad6ce251d98316393be669bb7c5027"}
	for _, tc := range []struct{ dir, want string }{
		{"out/2026-09-27", "out/2026-09-27"},
		{"/srv/green tokens/2026-09-27", "'/srv/green tokens/2026-09-27'"},
		{"it's/2026-09-27", `'it'\''s/2026-09-27'`},
		{"$HOME/x", "'$HOME/x'"},
	} {
		want := "go run github.com/leadgreen/greentokens/cmd/greentokens@" + g.Revision + " verify " + tc.want
		if got := g.RerunCommand("verify", tc.dir); got != want {
			t.Errorf("RerunCommand(verify %q) = %q, want %q", tc.dir, got, want)
		}
	}
}
