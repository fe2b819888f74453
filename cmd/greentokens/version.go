package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/build"
)

func init() { register(newVersionCmd) }

// versionInfo is what version --json prints: the code running, from its
// build information, with the keys in this order.
type versionInfo struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Revision string `json:"revision"`
	Time     string `json:"time"`
	Modified bool   `json:"modified"`
	Go       string `json:"go"`
}

// thisVersion is the running binary's versionInfo.
func thisVersion() versionInfo {
	var settings []debug.BuildSetting
	if bi, ok := debug.ReadBuildInfo(); ok {
		settings = bi.Settings
	}
	return versionOf(build.ThisGenerator(), settings)
}

// versionOf is the versionInfo of the code g (the generator a build
// records, build.ThisGenerator) with the build settings Go stamped: the
// revision's commit time is vcs.time.
func versionOf(g format.Generator, settings []debug.BuildSetting) versionInfo {
	v := versionInfo{Module: g.Module, Version: g.Version, Revision: g.Revision, Modified: g.Modified, Go: g.Go}
	for _, s := range settings {
		if s.Key == "vcs.time" {
			v.Time = s.Value
		}
	}
	return v
}

// newVersionCmd prints what --version prints: the code running, from its
// build information (the same record a build writes as the manifest's
// generator).
func newVersionCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "print the module, version, full VCS revision and Go version of this binary",
		Long: "Prints the code running, from the binary's build information: the record a build writes as\n" +
			"the manifest's generator. --json prints one object with these keys, always all of them, in\n" +
			"this order: module (the main module's path), version (its version: a tag or pseudo-version,\n" +
			"or (devel) when none was stamped), revision (the full VCS revision, \"\" when none was stamped),\n" +
			"time (the revision's commit time, RFC 3339, \"\" with no revision), modified (true when the\n" +
			"checkout had uncommitted changes) and go (the Go toolchain that built the binary).",
		Example: "  greentokens version\n" +
			"  greentokens version --json",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return printJSON(e, thisVersion())
			}
			_, err := fmt.Fprintf(e.stdout, "greentokens %s\n", cmd.Root().Version)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the build information as one JSON object")
	return cmd
}
