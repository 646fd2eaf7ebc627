package config

// side-effecting names the registered formats
import _ "github.com/compaudit/compaudit/parse/formats"
