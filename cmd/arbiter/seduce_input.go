package main

import (
	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// readPredictions reads one --predictions file (- is stdin); any bad line is bad input.
func (a *app) readPredictions(path string, opt seduce.ParseOptions, seen map[seduce.PredictionKey]string) ([]seduce.Prediction, error) {
	r := a.stdin
	if path != "-" {
		fh, err := input.Open(path)
		if err != nil {
			return nil, usageError{err}
		}
		defer fh.Close()
		r = fh
	}
	r, err := inspectAsPredictions(r, path)
	if err != nil {
		return nil, usageError{err}
	}
	preds, err := seduce.ReadPredictionsWith(r, path, opt, seen)
	if err != nil {
		return nil, usageError{err}
	}
	return preds, nil
}

// loadConfigFile reads the optional --config file of a command that asks no model.
func (a *app) loadConfigFile(path string) (*config.File, error) {
	if path == "" {
		return nil, nil
	}
	file, _, err := config.LoadFile(path, a.env.Look)
	if err != nil {
		return nil, usageError{err}
	}
	return file, nil
}
