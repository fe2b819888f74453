package build

import (
	"runtime/debug"
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
