// Command greentokens builds, checks and compares dated snapshots of the
// Green Tokens index: the GPU energy that open language models use per
// million output tokens, from the ML.ENERGY Leaderboard, with the carbon it
// carries on every country's grid, from Ember.
//
// Run "greentokens help" for the commands and exit codes.
package main

import "os"

func main() {
	// Every command runs under the soft memory limit, the checker's
	// commands under a larger one (memory.go); a GOMEMLIMIT of the user's
	// wins.
	limitMemory(defaultMemoryLimit)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
