package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/mcpserver/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMain(m *testing.M) { catalogtest.Main(m) }

// testVersion is the binary's version the tests' servers are given.
const testVersion = "github.com/leadgreen/greentokens v1.2.3 revision 0123456789abcdef0123456789abcdef01234567 go1.26.0"

// checkServerInfo: the server names itself, with its title and the
// version it was given.
func checkServerInfo(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	got := cs.InitializeResult().ServerInfo
	if want := (mcp.Implementation{Name: Name, Title: Title, Version: testVersion}); got == nil || !cmp.Equal(*got, want) {
		t.Errorf("serverInfo %+v, want %+v", got, want)
	}
}

// openCatalog opens the catalog of catalogtest.Shared once per test
// binary: no test changes the folder.
func openCatalog(t *testing.T) (*catalog.Catalog, string) {
	t.Helper()
	root := catalogtest.Shared(t)
	shared.Do(func() { shared.cat, shared.err = catalog.Open(root, nil) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.cat, root
}

var shared struct {
	sync.Once
	cat *catalog.Catalog
	err error
}

// TestInMemory drives every tool through the SDK's client over its
// in-memory transport.
func TestInMemory(t *testing.T) {
	cat, root := openCatalog(t)
	cs := inMemory(t, cat)
	checkServerInfo(t, cs)
	mcptest.Check(t, cs, root)
}

// inMemory connects a client of the SDK to the server over cat through
// the in-memory transport; both close when the test ends.
func inMemory(t *testing.T, cat *catalog.Catalog) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(cat, testVersion).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestDocumentedSizes: docs/mcp.md's table of sizes is what the tools
// answer on the test snapshot, with the version of the length it says.
func TestDocumentedSizes(t *testing.T) {
	cat, _ := openCatalog(t)
	b, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	if v := fmt.Sprintf("a version of %d bytes", len(testVersion)); !strings.Contains(string(b), v) {
		t.Errorf("docs/mcp.md does not say its sizes are measured with %s", v)
	}
	lines := strings.Split(string(b), "\n")
	for _, row := range mcptest.SizeRows(t, inMemory(t, cat)) {
		if !slices.Contains(lines, row) {
			t.Errorf("docs/mcp.md lacks the row %q", row)
		}
	}
}

// TestStreamableHTTP drives every tool through the SDK's client over
// streamable HTTP, as /mcp serves it.
func TestStreamableHTTP(t *testing.T) {
	cat, root := openCatalog(t)
	srv := httptest.NewServer(Handler(cat, loopback(t), testVersion))
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	checkServerInfo(t, cs)
	mcptest.Check(t, cs, root)
}

// TestFallback: on the snapshot built from the sample's Ember file, a
// fallback area's year and flag reach the client (in-memory transport).
func TestFallback(t *testing.T) {
	cat, err := catalog.Open(catalogtest.SharedRealSmall(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	mcptest.CheckFallback(t, inMemory(t, cat))
}

// TestInstructionsEnergyScope: the instructions a client receives say what
// the energy covers in the words of the pages, the site and the API: prompt
// processing included, output tokens counted.
func TestInstructionsEnergyScope(t *testing.T) {
	cat, _ := openCatalog(t)
	got := inMemory(t, cat).InitializeResult().Instructions
	if !strings.Contains(got, format.EnergyScope()) {
		t.Errorf("the instructions lack %q:\n%s", format.EnergyScope(), got)
	}
	if strings.Contains(got, "prompt's tokens") {
		t.Errorf("the instructions still speak of the prompt's tokens as not counted:\n%s", got)
	}
}

// TestPriceCarbonArgs: each parameter of a price request the catalog can
// refuse a value of is named in its errors as one of price_carbon's
// arguments, by priceCarbonArgs or as the catalog spells it.
func TestPriceCarbonArgs(t *testing.T) {
	in, err := jsonschema.For[PriceCarbonInput](nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{catalog.ParamBatch, catalog.ParamIntensity, catalog.ParamNumGPUs, catalog.ParamPUE, "grid", "gpu", "model", "snapshot"} {
		name := p
		if n, ok := priceCarbonArgs[p]; ok {
			name = n
		}
		if _, ok := in.Properties[name]; !ok {
			t.Errorf("the catalog's %s is named %q in price_carbon's errors: not one of its arguments %v", p, name, slices.Sorted(maps.Keys(in.Properties)))
		}
	}
	// Each number's description gives the range the catalog checks.
	for arg, rng := range map[string]string{
		"running_batch":  fmt.Sprintf("from %g to %d", catalog.MinNumber, catalog.MaxBatch),
		"grid_intensity": fmt.Sprintf("0, or from %g to %d", catalog.MinNumber, format.MaxGCO2PerKWh),
		"num_gpus":       fmt.Sprintf("from 1 to %d", catalog.MaxNumGPUs),
		"pue":            fmt.Sprintf("from %d to %d", catalog.MinPUE, catalog.MaxPUE),
	} {
		if d := in.Properties[arg].Description; !strings.Contains(d, rng) {
			t.Errorf("price_carbon's %s: the description %q does not say %q", arg, d, rng)
		}
	}
}

// loopback is the allow-list of a server on 127.0.0.1.
func loopback(t *testing.T) *Allowlist {
	t.Helper()
	a, err := Allow("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
