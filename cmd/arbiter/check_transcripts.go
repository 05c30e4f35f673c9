package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arbiter-eval/arbiter/internal/check"
)

// readFlags say how the check commands read transcripts: --roles, --role-words, --player.
type readFlags struct {
	roles, words, player string
}

func (f *readFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.roles, "roles", "", `YAML file placing speakers by name or glob pattern, e.g. "human_proxy*": {role: defense, player: true}`)
	fs.StringVar(&f.words, "role-words", "", "YAML file of more role words (another language), in the form of the built-in list: {player: [words], roles: [{role, words}]}")
	fs.StringVar(&f.player, "player", "defense", "role the human played in transcripts that do not mark their player turns: its turns are never shown to the judge")
}

// options checks the flags. --player left at its default says nothing: the checklist's
// player roles stay in force.
func (f *readFlags) options(cmd *cobra.Command) (check.ReadOptions, error) {
	player := ""
	if cmd.Flags().Changed("player") {
		player = f.player
	}
	opt, err := check.NewReadOptions(f.roles, f.words, player)
	if err != nil {
		return opt, usageError{err}
	}
	return opt, nil
}

func (a *app) checkTranscriptsCmd() *cobra.Command {
	var rf readFlags
	var paths []string
	var format string
	cmd := &cobra.Command{
		Use:   "transcripts [PATH...]",
		Short: "Show how transcripts are read (format, roles, player turns) without judging them",
		Long: `Transcripts reads transcript files and folders as 'arbiter check judge' would and shows,
per file, the format it was read in and, per transcript, its turns, its language, the
turns read as the human player's (never shown to the judge) and every speaker with the
role it got and why: the turn's own role, a --roles entry, or a role word of its name
(English and Chinese are built in: judge/法官, prosecutor/公诉人, defense/辩护人,
witness/证人, clerk/书记员, plaintiff/原告, defendant/被告人, …). A bad file is listed with
all its problems, each speaker nothing places once with the --roles line that would.

Formats read: the JSON transcripts of spec section 1 (one a file, a list, or JSONL);
chat messages ({"role", "content", "name"} lists, as AutoGen and court simulators log
them, bare or under "messages"); plain text, one "Speaker: text" line a turn, with a
full-width colon (法官：…) or a bracketed label ([原告控诉]：…) as well. Nothing is asked
of any model. Exit 2 when a file cannot be read.`,
		Example: `  arbiter check transcripts trials/
  arbiter check transcripts --roles roles.yaml --player prosecutor --format json trials/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return badInput("--format %q: want text or json", format)
			}
			opt, err := rf.options(cmd)
			if err != nil {
				return err
			}
			paths = append(paths, args...)
			if len(paths) == 0 {
				paths = []string{"builtin"}
			}
			rs, err := check.DescribeTranscripts(paths, opt)
			if err != nil {
				return inputError(err)
			}
			if err := check.WriteReadings(a.stdout, rs, format); err != nil {
				return err
			}
			bad := 0
			for _, r := range rs {
				if len(r.Errors) > 0 {
					bad++
				}
			}
			if bad > 0 {
				return badInput("%d of %d transcript files cannot be read (their problems are listed above)", bad, len(rs))
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&paths, "transcripts", nil, "transcript file or folder, or builtin (repeatable; or give them as arguments)")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text or json")
	rf.register(cmd.Flags())
	return cmd
}

// skippedNote tells on stderr which bad files --skip-bad left out.
func (a *app) skippedNote(skipped []check.Skipped) {
	if a.quiet {
		return
	}
	for _, s := range skipped {
		fmt.Fprintf(a.stderr, "judge: skipped %s: %s\n", s.File, s.Error)
	}
}
