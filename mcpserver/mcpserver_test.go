package mcpserver

import (
	"context"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/mcpserver/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMain(m *testing.M) { catalogtest.Main(m) }

func openCatalog(t *testing.T) (*catalog.Catalog, string) {
	t.Helper()
	root := catalogtest.Shared(t)
	cat, err := catalog.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat, root
}

// TestInMemory drives every tool through the SDK's client over its
// in-memory transport.
func TestInMemory(t *testing.T) {
	cat, root := openCatalog(t)
	mcptest.Check(t, inMemory(t, cat), root)
}

// inMemory connects a client of the SDK to the server over cat through
// the in-memory transport; both close when the test ends.
func inMemory(t *testing.T, cat *catalog.Catalog) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(cat).Connect(ctx, st, nil)
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
// answer on the test snapshot.
func TestDocumentedSizes(t *testing.T) {
	cat, _ := openCatalog(t)
	b, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
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
	srv := httptest.NewServer(Handler(cat, loopback(t)))
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mcptest.Check(t, cs, root)
}

// TestFallback: on the snapshot built from the sample's Ember file, a
// fallback area's year and flag reach the client (in-memory transport).
func TestFallback(t *testing.T) {
	cat, err := catalog.Open(catalogtest.SharedReal(t), nil)
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
	if !strings.Contains(got, format.EnergyScope) {
		t.Errorf("the instructions lack %q:\n%s", format.EnergyScope, got)
	}
	if strings.Contains(got, "prompt's tokens") {
		t.Errorf("the instructions still speak of the prompt's tokens as not counted:\n%s", got)
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
