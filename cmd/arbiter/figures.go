package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/report"
)

// figureFlags are --figures, --figure-format and --figure-size (spec cli.md), shared by
// every command that writes figures.
type figureFlags struct {
	dir     string
	formats []string
	size    string
	// parsed by register's pre-run check, before any work is done
	parsedFormats []report.Format
	parsedSize    report.Size
}

// register adds the flags to cmd, and a check that rejects bad values as usage errors
// (exit 2) before the command does any work.
func (ff *figureFlags) register(cmd *cobra.Command, what string) {
	cmd.Flags().StringVar(&ff.dir, "figures", "", "also write the "+what+" into this folder")
	cmd.Flags().StringArrayVar(&ff.formats, "figure-format", nil, "figure format: svg, pdf or png (repeatable; default svg)")
	cmd.Flags().StringVar(&ff.size, "figure-size", report.DefaultSize.String(), "figure WIDTH,HEIGHT in in, cm, mm or pt")
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := ff.parse(); err != nil {
			return err
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// parse reads the formats and the size.
func (ff *figureFlags) parse() error {
	formats, err := report.ParseFormats(ff.formats)
	if err != nil {
		return badInput("%v", err)
	}
	size, err := report.ParseSize(ff.size)
	if err != nil {
		return badInput("%v", err)
	}
	ff.parsedFormats, ff.parsedSize = formats, size
	return nil
}

// writeListed writes figs as write does, then tells the report's reader on w, in the
// report's format, where they are and what their whiskers are; nothing without --figures.
func (ff *figureFlags) writeListed(w io.Writer, format string, figs []report.Figure) error {
	if ff.dir == "" {
		return nil
	}
	if err := ff.write(figs); err != nil {
		return err
	}
	if err := report.WriteFigureList(w, format, ff.dir, figs, ff.parsedFormats); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// write writes figs into --figures in every format asked for; nothing without --figures.
func (ff *figureFlags) write(figs []report.Figure) error {
	if ff.dir == "" {
		return nil
	}
	if ff.parsedFormats == nil {
		if err := ff.parse(); err != nil {
			return err
		}
	}
	return report.WriteFigures(ff.dir, figs, ff.parsedFormats, ff.parsedSize)
}
