package cmd

import (
	"fmt"
	"os"

	"github.com/compaudit/compaudit/cmd/config"
	"github.com/spf13/cobra"
)

func newConfigCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "config",
		Short: "Work with .compaudit.yaml",
	}
	var force bool
	initCmd := &cobra.Command{
		Use:   "init [PATH]",
		Short: "Write a commented default configuration file",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path := config.FileName
			if len(args) == 1 {
				path = args[0]
			}
			if path == "-" {
				_, err := fmt.Fprint(a.streams.Out, config.Default)
				return err
			}
			if _, err := os.Stat(path); err == nil && !force {
				return usageError("%s exists; use --force to overwrite it", path)
			}
			if err := os.WriteFile(path, []byte(config.Default), 0o644); err != nil {
				return usageError("%v", err)
			}
			a.warnf("compaudit: wrote %s\n", path)
			return nil
		},
	}
	initCmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	c.AddCommand(initCmd)
	return c
}
