// swift-format-ignore-file
// Generated from Schemas/sandbox.openapi.json by `make openapi`; do not edit.
// A test keeps it equal to the file.

/// The sandbox's OpenAPI document, the bytes of Schemas/sandbox.openapi.json.
enum SandboxOpenAPIDocument {
    /// The document, as the sandbox serves it.
    static let text = ##"""
{
  "openapi": "3.1.0",
  "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
  "info": {
    "title": "paylinks sandbox",
    "version": "0.1.0",
    "summary": "What `paylinks serve` answers, and what it sends the game's server.",
    "description": "The local sandbox `paylinks serve` runs: the parts of Appcharge's API a game's server calls (Create Checkout Session, cancel, Initiate Refund, the Price Localization API, reporting), the checkout page and the dashboard a tester opens, and the control API a test script drives. Under `webhooks`, what the sandbox sends the game's server: the Grant Award Callback and the signed events, V1 and V2.\n\nWhat no operation below can say:\n\n- A method the path does not take is answered 405, with `Allow` naming the methods it does take, and a `Problem` body.\n- A method no RFC registers (such as `BREW`) is answered 501 `Problem`, on every path: the sandbox does not implement it anywhere (RFC 9110, section 15.6.2).\n- A path none of the operations names is answered 404 `Problem`.\n- `HEAD` is taken where an operation lists it, and answered as `GET` is, without the body.\n- An HTML answer carries the `Content-Security-Policy` it is held to and `X-Frame-Options: DENY`.\n- A JSON number the sandbox reads as a whole number may be written with a fraction of zeros or an exponent (`499`, `499.0`, `4.99e2`), as JSON Schema's `integer` allows.",
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:4010",
      "description": "paylinks serve, on its default port"
    }
  ],
  "tags": [
    {
      "name": "checkout",
      "description": "Appcharge's checkout API, as the game's server calls it."
    },
    {
      "name": "price-localization",
      "description": "Appcharge's Price Localization API."
    },
    {
      "name": "reporting",
      "description": "Appcharge's reporting API."
    },
    {
      "name": "control",
      "description": "The sandbox's control API, for test scripts: JSON in, JSON out."
    },
    {
      "name": "pages",
      "description": "The checkout page and the dashboard, for a tester's browser: HTML, and forms that answer 303."
    },
    {
      "name": "document",
      "description": "This document."
    }
  ],
  "paths": {
    "/openapi.json": {
      "get": {
        "operationId": "getOpenAPIDocument",
        "tags": [
          "document"
        ],
        "summary": "This document",
        "description": "The bytes of `Schemas/sandbox.openapi.json`.",
        "responses": {
          "200": {
            "description": "The document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "openapi",
                    "paths"
                  ]
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          }
        }
      },
      "head": {
        "operationId": "headOpenAPIDocument",
        "tags": [
          "document"
        ],
        "summary": "This document's head",
        "responses": {
          "200": {
            "description": "The document's head, without its body."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          }
        }
      }
    }
  },
  "webhooks": {},
  "components": {
    "securitySchemes": {
      "publisherToken": {
        "type": "apiKey",
        "in": "header",
        "name": "x-publisher-token",
        "description": "The studio's publisher token: `serve --publisher-token`, else `PAYLINKS_PUBLISHER_TOKEN`, else the demo token. Every copy of the header must be this token."
      }
    },
    "schemas": {
      "Problem": {
        "description": "What the sandbox answers when it refuses or cannot do what was asked, in its own words: the status again, one line that says what was wrong and how to fix it, and, when there were several, each problem.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "errorCode",
          "errorMessage"
        ],
        "properties": {
          "errorCode": {
            "type": "integer",
            "description": "The answer's status code."
          },
          "errorMessage": {
            "type": "string"
          },
          "problems": {
            "type": "array",
            "minItems": 2,
            "items": {
              "type": "string"
            }
          }
        }
      },
      "Page": {
        "description": "An HTML page: a whole document, UTF-8.",
        "type": "string"
      }
    },
    "responses": {
      "Malformed": {
        "description": "The request could not be read as HTTP/1.1: the problem says what was wrong.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "LengthRequired": {
        "description": "A body came without a Content-Length.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "BodyTooLarge": {
        "description": "The body is larger than the sandbox takes.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "HeadersTooLarge": {
        "description": "The request line and headers are larger than the sandbox takes.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "UnknownTransferCoding": {
        "description": "The request names a transfer coding the sandbox does not implement.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Misdirected": {
        "description": "The request names a Host the sandbox does not serve: it answers to IP addresses and the names `--allowed-host` gives.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "MisdirectedPage": {
        "description": "The request names a Host the sandbox does not serve: a page says so.",
        "content": {
          "text/html; charset=utf-8": {
            "schema": {
              "$ref": "#/components/schemas/Page"
            }
          },
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "ForeignOrigin": {
        "description": "A page of another site sent the request (its Origin or Referer is not the sandbox's).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "ForeignPage": {
        "description": "A page of another site sent the form, or the form's token is missing or of another run: a page says so.",
        "content": {
          "text/html; charset=utf-8": {
            "schema": {
              "$ref": "#/components/schemas/Page"
            }
          },
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "NotJSON": {
        "description": "The control API takes only `Content-Type: application/json`, with an empty body too.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "NotKept": {
        "description": "The sandbox could not keep the change on disk (`serve --data`), so nothing changed: try again once the disk is free.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      }
    }
  }
}
"""##
}
