package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/snapshots/store"
)

func init() { register(newHistoryCmd) }

func newHistoryCmd(e *env) *cobra.Command {
	var from, task, gpu string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "history MODEL [--task T] [--gpu G] [--snapshots DIR-or-URL] [--json]",
		Short: "a model's index rows across the releases of a store, and why each change happened",
		Long: "Prints each GPU's index row of MODEL (slug, name or model id) in every release of a store:\n" +
			"a folder of dated snapshots (DIR/YYYY-MM-DD/) or a bucket of releases (file://, s3://, gs://,\n" +
			"azblob://, mem://, as publish writes one), each checked against its manifest and schemas as\n" +
			"serve checks it. A release that changed a figure says why, from the two releases' manifests\n" +
			"and their diff: the upstream data changed, a row was excluded or restored, the index row is\n" +
			"a new row or on a new GPU, or our code changed with the same sources. --task is a task of the\n" +
			"registry (lm-arena-chat, the default, gpqa, sourcegraph-fim, image-chat, video-chat,\n" +
			"text-to-image, text-to-video: see list tasks), its figures in the task's unit (Wh per million\n" +
			"output tokens, per image, per video); --gpu one GPU. The answer is the HTTP API's\n" +
			"/v1/history/{model} and the MCP tool get_history's (detail full), from the same code.\n" +
			"Without --snapshots the store is " + defaultOut + ".",
		Example: "  greentokens history qwen-3-32b\n" +
			"  greentokens history \"Qwen 3 32B\" --gpu B200 --snapshots out --json\n" +
			"  greentokens history qwen-3-32b --task gpqa --snapshots file:///srv/releases\n" +
			"  greentokens history flux-1-dev --task text-to-image",
		Args: exactArgs(1, "a MODEL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if from == "" {
				from = defaultOut
			}
			return runHistory(e, from, history.Request{Model: args[0], Task: task, GPU: gpu}, asJSON)
		},
	}
	cmd.Flags().StringVar(&from, "snapshots", "", "the store: a folder `DIR` of dated snapshots, or a bucket's URL (file://, s3://, ...); "+defaultOut+" when not given")
	cmd.Flags().StringVar(&task, "task", "", "the task `T` of the index rows, one of list tasks' (lm-arena-chat, gpqa, text-to-image, ...); the primary task when not given")
	cmd.Flags().StringVar(&gpu, "gpu", "", "only this `GPU` (B200, H100); each GPU when not given")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (the API's /v1/history/{model} answer) instead of a table")
	return cmd
}

// runHistory reads every release of the store from, one at a time, into
// the history req asks for.
func runHistory(e *env, from string, req history.Request, asJSON bool) error {
	st, err := openStore(e, from)
	if err != nil {
		return err
	}
	b, err := history.NewBuilder(e.ctx, req)
	if err != nil {
		return historyError(err)
	}
	entries, err := st.Entries(e.ctx)
	if err != nil {
		return err
	}
	for _, ent := range entries {
		if ent.Err != nil {
			fmt.Fprintf(e.stderr, "greentokens: history: %s left out: %s\n", printable.String(st.Name(ent.Date)), printable.String(ent.Err.Error()))
			continue
		}
		rel, err := store.Load(e.ctx, st.FS(ent.Date), st.Name(ent.Date))
		if err != nil {
			return err
		}
		s, err := catalog.FromLoaded(rel)
		if err != nil {
			return err
		}
		if err := b.Add(s); err != nil {
			return err
		}
	}
	if err := interrupted(e); err != nil {
		return err
	}
	h, err := b.History()
	if err != nil {
		return historyError(err)
	}
	if asJSON {
		return printJSON(e, h)
	}
	return h.WriteText(e.stdout)
}

// historyError makes a request the history cannot answer (an unknown
// model, task or GPU) a usage error, exit 2, in the catalog's words.
func historyError(err error) error {
	var ce *catalog.Error
	if errors.As(err, &ce) {
		return usagef("%s", ce.Error())
	}
	return fmt.Errorf("history: %w", err)
}
