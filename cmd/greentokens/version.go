package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() { register(newVersionCmd) }

// newVersionCmd prints what --version prints: the code running, from its
// build information (the same record a build writes as the manifest's
// generator).
func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the module, version, full VCS revision and Go version of this binary",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintf(e.stdout, "greentokens %s\n", cmd.Root().Version)
			return err
		},
	}
}
