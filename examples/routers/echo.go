package main

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/squeezehttp/squeeze/encoding"
)

// echoHandler is an echo instance, wrapped as a whole: echo's
// HTTPErrorHandler writes the error responses after the middleware chain
// has returned, so compression must sit outside echo, not in e.Use. Serve
// it with http.ListenAndServe (or an http.Server whose Handler it is):
// e.Start sets the server's Handler to e itself.
func echoHandler() http.Handler {
	e := echo.New()
	e.HideBanner = true
	e.GET(itemsPath, func(c echo.Context) error {
		c.Response().Header().Set("ETag", itemsETag)
		return c.Blob(http.StatusOK, "application/json", []byte(itemsJSON))
	})
	e.GET(missingItemPath, func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusNotFound, notFoundMessage)
	})
	return encoding.Handler(e)
}
