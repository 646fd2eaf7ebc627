package report

import "time"

func timeOf(day string) time.Time {
	t, _ := time.Parse("2006-01-02", day)
	return t
}
