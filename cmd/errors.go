package cmd

import (
	"errors"
	"fmt"

	"github.com/compaudit/compaudit/parse"
)

// Exit codes. Findings never change the meaning of 3 and 4.
const (
	ExitOK         = 0 // nothing at or above --fail-on
	ExitFindings   = 1 // a finding at or above --fail-on
	ExitUsage      = 2 // bad flags, arguments or configuration
	ExitUnreadable = 3 // an input could not be read or recognized
	ExitInternal   = 4 // a bug in compaudit
)

// ExitError carries the exit code of a failure to main.
type ExitError struct {
	Code int
	Err  error
	// Silent errors were already reported; main prints nothing more.
	Silent bool
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

func usageError(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// exitCode maps any error to its exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	var ie *parse.InputError
	if errors.As(err, &ie) {
		return ExitUnreadable
	}
	// cobra reports unknown flags and bad arguments as plain errors
	return ExitUsage
}
