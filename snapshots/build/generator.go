package build

import (
	"runtime/debug"

	"github.com/leadgreen/greentokens/format"
)

// ThisGenerator is the code running now, from its build information
// (runtime/debug.ReadBuildInfo), never a hand-kept constant.
func ThisGenerator() format.Generator {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return format.Generator{Module: "unknown", Version: "(devel)"}
	}
	return generatorOf(bi)
}

func generatorOf(bi *debug.BuildInfo) format.Generator {
	g := format.Generator{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}
	if g.Module == "" { // a test binary
		g.Module = bi.Path
	}
	if g.Version == "" {
		g.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			g.Revision = s.Value
		case "vcs.modified":
			g.Modified = s.Value == "true"
		}
	}
	return g
}
