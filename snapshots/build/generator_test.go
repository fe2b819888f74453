package build

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
)

func TestGeneratorFromBuildInfo(t *testing.T) {
	const rev = "4c91eaa0123456789abcdef0123456789abcdef0"
	for _, tc := range []struct {
		name     string
		bi       debug.BuildInfo
		want     format.Generator
		describe string
	}{
		{
			name: "a checkout, clean",
			bi: debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}},
			want:     format.Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Revision: rev, Go: "go1.26.0"},
			describe: "github.com/leadgreen/greentokens (devel) revision " + rev + " go1.26.0",
		},
		{
			name: "a checkout with changes",
			bi: debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}},
			want:     format.Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Revision: rev, Modified: true, Go: "go1.26.0"},
			describe: "github.com/leadgreen/greentokens (devel) revision " + rev + " (modified) go1.26.0",
		},
		{
			name:     "go run MODULE@VERSION: a version, no revision",
			bi:       debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "v0.0.0-20261130175648-4c91eaa01234"}},
			want:     format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-20261130175648-4c91eaa01234", Go: "go1.26.1"},
			describe: "github.com/leadgreen/greentokens v0.0.0-20261130175648-4c91eaa01234 (no VCS revision recorded) go1.26.1",
		},
		{
			name:     "built without VCS stamping",
			bi:       debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/leadgreen/greentokens", Version: "(devel)"}},
			want:     format.Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Go: "go1.26.0"},
			describe: "github.com/leadgreen/greentokens (devel) (no VCS revision recorded) go1.26.0",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := generatorOf(&tc.bi)
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("generator (-want +got):\n%s", diff)
			}
			if got := g.String(); got != tc.describe {
				t.Errorf("String: %q, want %q", got, tc.describe)
			}
		})
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

// TestMissingProvenance: what a build's binary lacks to name its code,
// and what build --require-revision asks of it, for each way Go builds it.
func TestMissingProvenance(t *testing.T) {
	const rev = "4c91eaa0123456789abcdef0123456789abcdef0"
	const m = "github.com/leadgreen/greentokens"
	for _, tc := range []struct {
		name                string
		g                   format.Generator
		provenance, revNote string // "" when nothing is missing
	}{
		{"go build in a clone", format.Generator{Module: m, Version: "v0.0.0-20261130175648-4c91eaa01234", Revision: rev}, "", ""},
		{"an older Go in a clone", format.Generator{Module: m, Version: "(devel)", Revision: rev}, "", ""},
		{"go install MODULE@VERSION", format.Generator{Module: m, Version: "v1.2.3"}, "", "only the module version v1.2.3"},
		{"go run MODULE@REV", format.Generator{Module: m, Version: "v0.0.0-20261130175648-4c91eaa01234"}, "", "only the module version"},
		{"a clone with changes", format.Generator{Module: m, Version: "v0.0.0-20261130175648-4c91eaa01234+dirty", Revision: rev, Modified: true}, "uncommitted changes", "uncommitted changes"},
		{"go run, a worktree, -buildvcs=false", format.Generator{Module: m, Version: "(devel)"}, "no VCS revision", "no VCS revision"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(what, got, want string) {
				if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
					t.Errorf("%s = %q, want %q", what, got, want)
				}
			}
			check("MissingProvenance", MissingProvenance(tc.g), tc.provenance)
			check("MissingRevision", MissingRevision(tc.g), tc.revNote)
		})
	}
}
