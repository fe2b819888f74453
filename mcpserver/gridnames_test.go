package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
)

// TestPriceCarbonGridNames: price_carbon's grids find the area a code or
// name names, UK the United Kingdom and never Ukraine, and list_grids lists
// it for the same query; where grid.json has no value for the place, the
// tool error says which place, in the resolver's words under the tool's
// argument name, and suggests no other area.
func TestPriceCarbonGridNames(t *testing.T) {
	open := func(root string) *mcp.ClientSession {
		cat, err := catalog.Open(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		return inMemory(t, cat)
	}
	withAll, seven := open(catalogtest.SharedRealSmall(t)), open(catalogtest.Shared(t))
	call := func(cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s %v: %v", tool, args, err)
		}
		var text string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		return text, res.IsError
	}
	for _, tc := range catalogtest.GridNames {
		t.Run(tc.Query, func(t *testing.T) {
			args := map[string]any{"model": "qwen-3-32b", "gpu": "B200", "grids": []string{tc.Query}}
			text, isErr := call(withAll, "price_carbon", args)
			if isErr {
				t.Fatalf("price_carbon %v: %s", args, text)
			}
			var ans struct {
				Rows []struct{ Grid, ISO3 string }
			}
			if err := json.Unmarshal([]byte(text), &ans); err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, r := range ans.Rows {
				got = append(got, r.Grid+" "+r.ISO3)
			}
			if diff := cmp.Diff([]string{tc.Name + " " + tc.ISO3}, got); diff != "" {
				t.Errorf("price_carbon %q priced (-want +got):\n%s", tc.Query, diff)
			}

			text, isErr = call(withAll, "list_grids", map[string]any{"query": tc.Query})
			var l catalog.GridList
			if err := json.Unmarshal([]byte(text), &l); isErr || err != nil {
				t.Fatalf("list_grids %q: %s (%v)", tc.Query, text, err)
			}
			listed := false
			for _, a := range l.Areas {
				listed = listed || a.Name == tc.Name
			}
			if !listed {
				t.Errorf("list_grids %q does not list %s: %s", tc.Query, tc.Name, text)
			}

			text, isErr = call(seven, "price_carbon", args)
			if want := fmt.Sprintf("grids %q: no value for %s in the 2024 grid", tc.Query, tc.Place); !isErr || text != want {
				t.Errorf("price_carbon %q on the seven grids: isError %v, %q; want %q", tc.Query, isErr, text, want)
			}
		})
	}
	text, isErr := call(seven, "price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"Germny"}})
	if want := `grids "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`; !isErr || text != want {
		t.Errorf("a mistyped grid: isError %v, %q; want %q", isErr, text, want)
	}
}
