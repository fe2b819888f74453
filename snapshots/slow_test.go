package snapshots

import "testing"

// slow marks a slow check (the 10,000-model scale and memory test, two
// builds of one date racing for the folder): under -short it is skipped. "make test" runs go test -short, the fast set; "make scale" runs
// every test, these too, and CI runs both.
func slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: run by make scale")
	}
}
