package fetch_test

import (
	"context"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
)

func TestDir(t *testing.T) {
	t.Parallel()
	origins := fetch.Origins{LeaderboardBase: "https://lb.example/public/data", GitHubAPI: "https://api.example/", EmberURL: "https://ember.example/y.csv"}
	root := writeTree(t, map[string]string{
		"leaderboard/index.json":                    indexJSON,
		"leaderboard/commits.json":                  commitsJSON,
		"leaderboard/tasks/gpqa.json":               gpqaJSON,
		"ember/yearly_full_release_long_format.csv": "Area,Year\n",
		"x": "outside",
	})
	upstream := writeTree(t, map[string]string{"index.json": `{"upstream":true}`, "tasks/gpqa.json": `{}`})

	type got struct{ URL, Data string }
	tests := []struct {
		name        string
		leaderboard string
		source      string
		want        got
		wantErr     string
	}{
		{name: "index", source: fetch.LeaderboardIndex,
			want: got{"https://lb.example/public/data/index.json", indexJSON}},
		{name: "task", source: fetch.LeaderboardTask("gpqa"),
			want: got{"https://lb.example/public/data/tasks/gpqa.json", gpqaJSON}},
		{name: "commits", source: fetch.LeaderboardCommits,
			want: got{"https://api.example" + fetch.CommitsQuery, commitsJSON}},
		{name: "ember", source: fetch.EmberYearly,
			want: got{"https://ember.example/y.csv", "Area,Year\n"}},
		{name: "leaderboard folder as upstream lays it out", leaderboard: upstream, source: fetch.LeaderboardIndex,
			want: got{"https://lb.example/public/data/index.json", `{"upstream":true}`}},
		{name: "ember beside an upstream leaderboard folder", leaderboard: upstream, source: fetch.EmberYearly,
			want: got{"https://ember.example/y.csv", "Area,Year\n"}},
		{name: "parent folder", source: "../x", wantErr: `fetch: bad source name "../x"`},
		{name: "parent inside", source: "leaderboard/../x", wantErr: `fetch: bad source name "leaderboard/../x"`},
		{name: "absolute", source: "/etc/passwd", wantErr: `fetch: bad source name "/etc/passwd"`},
		{name: "unknown", source: "x", wantErr: `fetch: no upstream for source "x"`},
		{name: "missing", source: fetch.LeaderboardTask("nope"), wantErr: "fetch: reading leaderboard/tasks/nope.json: open "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := fetch.Dir{Root: root, Origins: origins, Leaderboard: tt.leaderboard}
			body, err := d.Open(t.Context(), tt.source)
			if tt.wantErr != "" {
				wantErr(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer body.Close()
			data, err := io.ReadAll(body)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got{body.URL, string(data)}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !body.Retrieved.IsZero() {
				t.Errorf("Retrieved = %v, want zero", body.Retrieved)
			}
		})
	}

	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := (fetch.Dir{Root: root, Origins: origins}).Open(ctx, fetch.LeaderboardIndex); err != context.Canceled {
			t.Errorf("error = %v, want context.Canceled", err)
		}
	})
}
