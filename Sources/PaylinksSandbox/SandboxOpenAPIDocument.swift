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
    "description": "The local sandbox `paylinks serve` runs: the parts of Appcharge's API a game's server calls (Create Checkout Session, cancel, Initiate Refund, the Price Localization API, reporting), the checkout page and the dashboard a tester opens, and the control API a test script drives. Under `webhooks`, what the sandbox sends the game's server: the Grant Award Callback and the signed events, V1 and V2.\n\nWhat no operation below can say:\n\n- A method the path does not take, one no RFC registers (such as `QUERY`) too, is answered 405, with `Allow` naming the methods it does take, and a `Problem` body: a 5xx would say the sandbox failed. It is answered before the form token, the JSON `Content-Type` or the `Origin` is asked for, since it changes nothing; only a `Host` the sandbox does not serve is refused first, 421. Appcharge's legacy link, `/{token}`, answers 404 for a segment that is no live session's token, whatever the method.\n- A path none of the operations names is answered 404 `Problem`.\n- Before a request is routed, the transport refuses what is not HTTP/1.1 as it should be read: 400 malformed, 408 a request slower than 10 s to arrive whole, 413 a body too large, 431 a head too large, 501 an unknown transfer coding, 505 another version of HTTP. Every operation lists them. Past 1,024 connections, when none is idle, a new connection is answered 503 `Problem` and closed before any request is read.\n- `HEAD` is taken where an operation lists it, and answered as `GET` is, without the body.\n- An HTML answer carries the `Content-Security-Policy` it is held to and `X-Frame-Options: DENY`.\n- A JSON number the sandbox reads as a whole number may be written with a fraction of zeros or an exponent (`499`, `499.0`, `4.99e2`), as JSON Schema's `integer` allows.",
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    }
  },
  "servers": [
    {
      "url": "/",
      "description": "The sandbox that served this document, on whatever port it listens."
    },
    {
      "url": "http://{host}:{port}",
      "description": "paylinks serve elsewhere",
      "variables": {
        "host": {
          "default": "127.0.0.1"
        },
        "port": {
          "default": "4010"
        }
      }
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
    },
    {
      "name": "webhooks",
      "description": "What the sandbox sends the game's server, and the answers it requires."
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
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
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
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/checkout/v1/session": {
      "post": {
        "operationId": "createCheckoutSession",
        "tags": [
          "checkout"
        ],
        "summary": "Create Checkout Session",
        "description": "What the game's server calls when the player picks an offer. A player on the blocked list (`--block-player`, the control API) is refused 403 before any session exists. Past `--rate-limit`, 429.",
        "security": [
          {
            "publisherToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SessionRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The session: its token, purchase id and checkout URLs.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SessionCreated"
                }
              }
            },
            "links": {
              "GetControlSession": {
                "operationId": "getControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                },
                "description": "The new session, as the control API shows it."
              },
              "CompleteControlSession": {
                "operationId": "completeControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                },
                "description": "The player's choice on the new session."
              },
              "GetCheckoutPage": {
                "operationId": "getCheckoutPage",
                "parameters": {
                  "token": "$response.body#/checkoutSessionToken"
                },
                "description": "The new session's checkout page."
              },
              "GetOrderPage": {
                "operationId": "getOrderPage",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                },
                "description": "The new session's page on the dashboard."
              }
            }
          },
          "400": {
            "description": "The request could not be read as HTTP/1.1, or the body is not a session: not JSON, a field missing or of the wrong type, a currency or country the sandbox does not know, `firstSeenAt` not before the sandbox's clock. With several problems, `problems` lists each.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "401": {
            "description": "No `x-publisher-token`, or not the sandbox's (`Publisher token is required.` or `Publisher token is invalid.`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutUnauthorized"
                }
              }
            }
          },
          "403": {
            "description": "The player is blocked (Appcharge's words), or a page of another site sent the request (a Problem).",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/CheckoutBlockedPlayer"
                    },
                    {
                      "$ref": "#/components/schemas/Problem"
                    }
                  ]
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "description": "The body is not sent as `Content-Type: application/json`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past `--rate-limit` requests of the publisher token in 60 seconds.",
            "content": {
              "application/json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/CheckoutMessage"
                    }
                  ],
                  "properties": {
                    "message": {
                      "const": "Rate limit exceeded.",
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "description": "Paid orders, which are never forgotten, leave no room in the session budget (`--session-budget`) for this session: the problem says what they hold, what the session needs, and to start serve with a larger budget or another `--data` directory; or the sandbox could not keep the change on disk (`serve --data`), so nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/checkout/v3/cancel": {
      "post": {
        "operationId": "cancelCheckoutSession",
        "tags": [
          "checkout"
        ],
        "summary": "Cancel Checkout Session",
        "description": "The game's server cancels a session with the session's own token, `Authorization: Bearer <checkoutSessionToken>`, and no body: the session takes no more payments (`payment_canceled`), `{\"isOrderCancelled\":true}`. A session that had ended without a payment (cancelled, closed, expired, declined) stays as it is and is answered true as well; one whose order is paid, refunded or disputed, or whose payment is pending, stays as it is and is answered `{\"isOrderCancelled\":false}`, and the log says why.",
        "security": [
          {
            "checkoutSessionToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "`isOrderCancelled` true: the session is cancelled, or had ended without a payment; false: its order was paid or its payment is pending, and nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutCancelled"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "401": {
            "description": "No `Authorization` (\"Authorization: Bearer <checkoutSessionToken> is required.\"), one that is not `Bearer` (\"The Authorization header must be Authorization: Bearer <checkoutSessionToken>.\"), or no session has its bearer token (\"No checkout session has this token.\").",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutUnauthorized"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/checkout/api/v1/order/{orderId}/refund": {
      "post": {
        "operationId": "initiateRefund",
        "tags": [
          "checkout"
        ],
        "summary": "Initiate Refund",
        "description": "The game's server refunds an order in full (`after-the-purchase.md`, section 2): accepted, the refund goes through and `order.refunded` follows. Only a Succeeded or Failed (Charged) order can be refunded. Takes no body. Any non-empty `x-user-id` is taken, another player's too, as Appcharge does not say what it does then; the log warns when it is not the order's player. Past `--rate-limit`, 429.",
        "security": [
          {
            "publisherToken": []
          }
        ],
        "parameters": [
          {
            "name": "orderId",
            "in": "path",
            "required": true,
            "description": "The order's `orderId` (ten digits), as the award carries it; not its purchase id.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "x-user-id",
            "in": "header",
            "required": true,
            "description": "The player's id. It must be present and non-empty (403 otherwise); another player's is taken too, and the log warns that it is not the order's player.",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          }
        ],
        "responses": {
          "201": {
            "description": "The refund was accepted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutRefundAccepted"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "403": {
            "description": "No publisher token, not the sandbox's, or no `x-user-id` (Appcharge's `Forbidden resource`, whatever was wrong); or a page of another site sent the request (a Problem).",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/CheckoutForbiddenResource"
                    },
                    {
                      "$ref": "#/components/schemas/Problem"
                    }
                  ]
                }
              }
            }
          },
          "404": {
            "description": "No order has this id (an unpaid session has none yet).",
            "content": {
              "application/json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/CheckoutMessage"
                    }
                  ],
                  "properties": {
                    "message": {
                      "const": "Order does not exist or cannot be found.",
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "The order's state cannot be refunded: not paid, or refunded or disputed already.",
            "content": {
              "application/json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/CheckoutMessage"
                    }
                  ],
                  "properties": {
                    "message": {
                      "const": "Failed to initiate a refund request",
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "429": {
            "description": "Past `--rate-limit` requests of the publisher token in 60 seconds.",
            "content": {
              "application/json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/CheckoutMessage"
                    }
                  ],
                  "properties": {
                    "message": {
                      "const": "Rate limit exceeded.",
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/checkout/{token}": {
      "get": {
        "operationId": "getCheckoutPage",
        "tags": [
          "pages"
        ],
        "summary": "The checkout page",
        "description": "The page the SDK (or `parsedUrl`) opens, where a tester pays. A visit that finds the session past its hour expires it, a change the sandbox keeps: 503 when it cannot.",
        "parameters": [
          {
            "name": "token",
            "in": "path",
            "required": true,
            "description": "The session's `checkoutSessionToken`.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The checkout: the offer and the choices while the session takes a payment, else what came of it (a Link Out session whose award is under way says it is finishing). A Link Out session's page, while it takes a payment, carries a `Content-Security-Policy` whose `form-action` also allows its `redirectUrl`.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "303": {
            "description": "A Link Out session (created with `redirectUrl`) that has ended sends the browser back to the game.",
            "headers": {
              "Location": {
                "description": "The session's `redirectUrl`, with `status=success`, `fail` or `cancel` added to its query (before any fragment).",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "[?&]status=(success|fail|cancel)(#.*)?$"
                }
              }
            },
            "content": {
              "text/plain": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutSeeOther"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No live session has this token: none had it, it was forgotten, or it expired unpaid.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headCheckoutPage",
        "tags": [
          "pages"
        ],
        "summary": "The checkout page's head",
        "parameters": [
          {
            "name": "token",
            "in": "path",
            "required": true,
            "description": "The session's `checkoutSessionToken`.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The checkout: the offer and the choices while the session takes a payment, else what came of it (a Link Out session whose award is under way says it is finishing). A Link Out session's page, while it takes a payment, carries a `Content-Security-Policy` whose `form-action` also allows its `redirectUrl`. (the head alone: no body)"
          },
          "303": {
            "description": "A Link Out session (created with `redirectUrl`) that has ended sends the browser back to the game. (the head alone: no body)",
            "headers": {
              "Location": {
                "description": "The session's `redirectUrl`, with `status=success`, `fail` or `cancel` added to its query (before any fragment).",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "[?&]status=(success|fail|cancel)(#.*)?$"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No live session has this token: none had it, it was forgotten, or it expired unpaid. (the head alone: no body)"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "post": {
        "operationId": "chooseOnCheckoutPage",
        "tags": [
          "pages"
        ],
        "summary": "The player's choice on the checkout page",
        "description": "The checkout page's form: applies the choice to the session, then back to the page (303). A session that already ended is left as it is, and answered 303 the same. The form's refusals are short pages, as a browser shows them.",
        "parameters": [
          {
            "name": "token",
            "in": "path",
            "required": true,
            "description": "The session's `checkoutSessionToken`.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/CheckoutChoiceForm"
              }
            }
          }
        },
        "responses": {
          "303": {
            "description": "The choice was applied (or the session had ended): back to the checkout page.",
            "headers": {
              "Location": {
                "description": "The checkout page, `/checkout/TOKEN`.",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^/checkout/[^/?#]*$"
                }
              }
            },
            "content": {
              "text/plain": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutSeeOther"
                }
              }
            }
          },
          "400": {
            "description": "The request could not be read as HTTP/1.1 (a Problem), or the form asks for what the session cannot take (a page): no choice or one not listed, `resolve` not succeeded or failed, `minutes` not from 1 to 525600, a payment that would resolve past the end of 9999, a decline or pending choice for a free session, a `paymentMethod` longer than 64 bytes.",
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
          "403": {
            "$ref": "#/components/responses/ForeignPage"
          },
          "404": {
            "description": "No live session has this token.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/{token}": {
      "get": {
        "operationId": "getLegacyCheckoutLink",
        "tags": [
          "pages"
        ],
        "summary": "The legacy checkout link",
        "description": "Appcharge's legacy checkout link, `/{checkoutSessionToken}?cot={CheckoutPublicKey}`: the checkout page. A segment that is no live session's token is answered 404 `Problem` whatever the method; a live session's token with any method but GET and HEAD is answered 405 `Problem`, with `Allow: GET, HEAD`. Before the route, the guard refuses an unsafe method a page of another site sent (403), and the transport a body too large (413). A visit that expires a session past its hour is a change the sandbox keeps: 503 when it cannot.",
        "parameters": [
          {
            "name": "token",
            "in": "path",
            "required": true,
            "description": "The session's `checkoutSessionToken`. Any one-segment path that no earlier route takes reaches this route; one that is no live session's token is answered 404 as an unknown path.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "cot",
            "in": "query",
            "required": false,
            "description": "The publisher's checkout public key (`serve --checkout-public-key`, by default `pk_sandbox_paylinks_demo`); missing or another, the page says how to fix the link (400).",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The checkout page of the session, as `GET /checkout/{token}` answers it.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "303": {
            "description": "A Link Out session that has ended sends the browser back to the game.",
            "headers": {
              "Location": {
                "description": "The session's `redirectUrl`, with `status=success`, `fail` or `cancel` added to its query (before any fragment).",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "[?&]status=(success|fail|cancel)(#.*)?$"
                }
              }
            },
            "content": {
              "text/plain": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutSeeOther"
                }
              }
            }
          },
          "400": {
            "description": "`cot` is missing or not the sandbox's checkout public key: a page says how to fix the link; or the request could not be read as HTTP/1.1 (a Problem).",
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
          "404": {
            "description": "No live session has this token: nothing is at this path, as at any unknown path.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headLegacyCheckoutLink",
        "tags": [
          "pages"
        ],
        "summary": "The legacy checkout link's head",
        "description": "Appcharge's legacy checkout link, `/{checkoutSessionToken}?cot={CheckoutPublicKey}`: the checkout page. A segment that is no live session's token is answered 404 `Problem` whatever the method; a live session's token with any method but GET and HEAD is answered 405 `Problem`, with `Allow: GET, HEAD`. Before the route, the guard refuses an unsafe method a page of another site sent (403), and the transport a body too large (413). A visit that expires a session past its hour is a change the sandbox keeps: 503 when it cannot.",
        "parameters": [
          {
            "name": "token",
            "in": "path",
            "required": true,
            "description": "The session's `checkoutSessionToken`. Any one-segment path that no earlier route takes reaches this route; one that is no live session's token is answered 404 as an unknown path.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "cot",
            "in": "query",
            "required": false,
            "description": "The publisher's checkout public key (`serve --checkout-public-key`, by default `pk_sandbox_paylinks_demo`); missing or another, the page says how to fix the link (400).",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The checkout page of the session, as `GET /checkout/{token}` answers it. (the head alone: no body)"
          },
          "303": {
            "description": "A Link Out session that has ended sends the browser back to the game. (the head alone: no body)",
            "headers": {
              "Location": {
                "description": "The session's `redirectUrl`, with `status=success`, `fail` or `cancel` added to its query (before any fragment).",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "[?&]status=(success|fail|cancel)(#.*)?$"
                }
              }
            }
          },
          "400": {
            "description": "`cot` is missing or not the sandbox's checkout public key: a page says how to fix the link; or the request could not be read as HTTP/1.1 (a Problem). (the head alone: no body)"
          },
          "404": {
            "description": "No live session has this token: nothing is at this path, as at any unknown path. (the head alone: no body)"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/": {
      "get": {
        "operationId": "getDashboard",
        "tags": [
          "pages"
        ],
        "summary": "The dashboard",
        "parameters": [
          {
            "name": "state",
            "in": "query",
            "required": false,
            "description": "Show the orders of one kind (paid, pending, failed, refunded, disputed, closed) or of one state code (such as `charge_succeed`, `payment_dispute_lost`), in either case. Anything else shows every state, and the page says why.",
            "schema": {
              "type": "string"
            },
            "examples": {
              "kind": {
                "value": "refunded"
              },
              "state": {
                "value": "payment_dispute_lost"
              }
            }
          },
          {
            "name": "player",
            "in": "query",
            "required": false,
            "description": "Show the orders of this player (`customer.id`), exactly.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "offer",
            "in": "query",
            "required": false,
            "description": "Show the orders of this offer SKU, exactly.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "from",
            "in": "query",
            "required": false,
            "description": "Show the orders created on this UTC day or later, `YYYY-MM-DD`. Anything else is left out, and the page says why.",
            "schema": {
              "type": "string"
            },
            "example": "2026-12-01"
          },
          {
            "name": "to",
            "in": "query",
            "required": false,
            "description": "Show the orders created on this UTC day or earlier, `YYYY-MM-DD`. Anything else is left out, and the page says why; a `to` before `from` matches nothing.",
            "schema": {
              "type": "string"
            },
            "example": "2026-12-31"
          },
          {
            "name": "q",
            "in": "query",
            "required": false,
            "description": "Search: a part of a purchase id, an order id or a player's id, ASCII letters in either case.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "page",
            "in": "query",
            "required": false,
            "description": "Which page of 50 orders, from 1; a page past the last is empty. Anything but a whole number from 1 shows page 1, and the page says why.",
            "schema": {
              "type": "string"
            },
            "example": "2"
          },
          {
            "name": "said",
            "in": "query",
            "required": false,
            "description": "The token of a notice a form of this page left (its 303's `Location` names it): the page shows what the form came to, on every visit for a minute. A token the sandbox did not give for this page, or one past its minute, shows nothing; the page never shows text a link carries.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The dashboard: the clock (with its form, on a virtual clock), the orders the query matches, newest first, a page of them with their totals by currency, the counts of sessions and deliveries, the blocked players, and the notice `said` names. A query the list cannot take is shown on the page, never refused.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headDashboard",
        "tags": [
          "pages"
        ],
        "summary": "The dashboard's head",
        "parameters": [
          {
            "name": "state",
            "in": "query",
            "required": false,
            "description": "Show the orders of one kind (paid, pending, failed, refunded, disputed, closed) or of one state code (such as `charge_succeed`, `payment_dispute_lost`), in either case. Anything else shows every state, and the page says why.",
            "schema": {
              "type": "string"
            },
            "examples": {
              "kind": {
                "value": "refunded"
              },
              "state": {
                "value": "payment_dispute_lost"
              }
            }
          },
          {
            "name": "player",
            "in": "query",
            "required": false,
            "description": "Show the orders of this player (`customer.id`), exactly.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "offer",
            "in": "query",
            "required": false,
            "description": "Show the orders of this offer SKU, exactly.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "from",
            "in": "query",
            "required": false,
            "description": "Show the orders created on this UTC day or later, `YYYY-MM-DD`. Anything else is left out, and the page says why.",
            "schema": {
              "type": "string"
            },
            "example": "2026-12-01"
          },
          {
            "name": "to",
            "in": "query",
            "required": false,
            "description": "Show the orders created on this UTC day or earlier, `YYYY-MM-DD`. Anything else is left out, and the page says why; a `to` before `from` matches nothing.",
            "schema": {
              "type": "string"
            },
            "example": "2026-12-31"
          },
          {
            "name": "q",
            "in": "query",
            "required": false,
            "description": "Search: a part of a purchase id, an order id or a player's id, ASCII letters in either case.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "page",
            "in": "query",
            "required": false,
            "description": "Which page of 50 orders, from 1; a page past the last is empty. Anything but a whole number from 1 shows page 1, and the page says why.",
            "schema": {
              "type": "string"
            },
            "example": "2"
          },
          {
            "name": "said",
            "in": "query",
            "required": false,
            "description": "The token of a notice a form of this page left (its 303's `Location` names it): the page shows what the form came to, on every visit for a minute. A token the sandbox did not give for this page, or one past its minute, shows nothing; the page never shows text a link carries.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The dashboard: the clock (with its form, on a virtual clock), the orders the query matches, newest first, a page of them with their totals by currency, the counts of sessions and deliveries, the blocked players, and the notice `said` names. A query the list cannot take is shown on the page, never refused. (the head alone: no body)"
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/orders/{purchaseId}": {
      "get": {
        "operationId": "getOrderPage",
        "tags": [
          "pages"
        ],
        "summary": "An order's page",
        "description": "A visit that expires a session past its hour is a change the sandbox keeps: 503 when it cannot.",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "description": "The order's purchase id, `pr_...`.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "said",
            "in": "query",
            "required": false,
            "description": "The token of a notice a form of this page left (its 303's `Location` names it): the page shows what the form came to, on every visit for a minute. A token the sandbox did not give for this page, or one past its minute, shows nothing; the page never shows text a link carries.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The order's page: its timeline, its newest deliveries, its forms (refund, dispute, Retry Award, resolve a pending payment) and the notice `said` names.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No live session has this purchase id.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headOrderPage",
        "tags": [
          "pages"
        ],
        "summary": "An order's page's head",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "description": "The order's purchase id, `pr_...`.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "said",
            "in": "query",
            "required": false,
            "description": "The token of a notice a form of this page left (its 303's `Location` names it): the page shows what the form came to, on every visit for a minute. A token the sandbox did not give for this page, or one past its minute, shows nothing; the page never shows text a link carries.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The order's page: its timeline, its newest deliveries, its forms (refund, dispute, Retry Award, resolve a pending payment) and the notice `said` names. (the head alone: no body)"
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No live session has this purchase id. (the head alone: no body)"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/orders/{purchaseId}/{action}": {
      "post": {
        "operationId": "submitOrderForm",
        "tags": [
          "pages"
        ],
        "summary": "A form of an order's page",
        "description": "`refund` (all of the price, or `amount`; `outcome=failed` for a refund the bank declines), `dispute` (`outcome` open, won or lost), `retry-award` (the award of a Failed (Charged) order sent again, with `--award-url`) and `resolve` (a pending payment, now or after `minutes`). Each goes back to the order's page (303), whose notice says what it came to, a refusal too (an order's state that does not allow it, no award endpoint, a value the form cannot take). An order the sandbox does not hold is the 404 page at once, before the form's fields are read.",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "description": "The order's purchase id, `pr_...`.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "action",
            "in": "path",
            "required": true,
            "description": "The form: another segment is answered 404.",
            "schema": {
              "type": "string",
              "enum": [
                "refund",
                "dispute",
                "retry-award",
                "resolve"
              ]
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/DashboardOrderForm"
              }
            }
          }
        },
        "responses": {
          "303": {
            "description": "Done or refused: back to the order's page, which says which.",
            "headers": {
              "Location": {
                "description": "The order's page, `/orders/PURCHASE_ID` (the id percent-encoded), with `said=` naming the notice that says what the form came to.",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^/orders/[^?#]*\\?said=[0-9a-f]{32}$"
                }
              }
            },
            "content": {
              "text/plain": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutSeeOther"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "403": {
            "$ref": "#/components/responses/ForeignPage"
          },
          "404": {
            "description": "No live session has the purchase id (checked first, whatever the action and the fields), or the action is none of the four: a page.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/players/{id}": {
      "get": {
        "operationId": "getPlayerPage",
        "tags": [
          "pages"
        ],
        "summary": "A player's page",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The player's id (`customer.id`), percent-encoded.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The player's orders, newest first, and what Appcharge's books say they should hold; with `--ledger-url`, beside what the game's ledger says they hold. With a ledger the answer waits until the ledger answered; a ledger that cannot be read is said on the page, which is answered 200 still.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No order has this player, or the segment is not percent-encoded UTF-8.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headPlayerPage",
        "tags": [
          "pages"
        ],
        "summary": "A player's page's head",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The player's id (`customer.id`), percent-encoded.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The player's orders, newest first, and what Appcharge's books say they should hold; with `--ledger-url`, beside what the game's ledger says they hold. With a ledger the answer waits until the ledger answered; a ledger that cannot be read is said on the page, which is answered 200 still. (the head alone: no body)"
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No order has this player, or the segment is not percent-encoded UTF-8. (the head alone: no body)"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/deliveries/{id}/replay": {
      "post": {
        "operationId": "submitReplayForm",
        "tags": [
          "pages"
        ],
        "summary": "Send a delivery again, from its order's page",
        "description": "Sends an award or an event again, newly signed or exactly as it was, then back to its order's page (303); without `--award-url` or `--events-url` the page says there is nowhere to send it. A replay changes no session, so the disk cannot refuse it.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The delivery's id, `dl_N`.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/DashboardReplayForm"
              }
            }
          }
        },
        "responses": {
          "303": {
            "description": "Sent again, or nowhere to send it: back to the delivery's order's page, which says which.",
            "headers": {
              "Location": {
                "description": "The order's page, `/orders/PURCHASE_ID` (the id percent-encoded), with `said=` naming the notice that says what the form came to.",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^/orders/[^?#]*\\?said=[0-9a-f]{32}$"
                }
              }
            },
            "content": {
              "text/plain": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutSeeOther"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "403": {
            "$ref": "#/components/responses/ForeignPage"
          },
          "404": {
            "description": "No delivery has this id: a page.",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/clock": {
      "post": {
        "operationId": "submitClockForm",
        "tags": [
          "pages"
        ],
        "summary": "Move a virtual clock, from the dashboard",
        "description": "Moves a virtual clock (`serve --clock virtual`) forward by `advance`, as `POST /control/v1/clock` does. The answer waits until every timer the move passes has fired (expiries, retries, scheduled payments, and what they send), then goes back to the dashboard (303), which shows the move. A move refused (a wall clock, a move under way, an `advance` that is no forward move or goes past 9999, the disk refusing the clock's time) goes back at once, and the dashboard says why.",
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/DashboardClockForm"
              }
            }
          }
        },
        "responses": {
          "303": {
            "description": "Moved, or refused: back to the dashboard, which says which.",
            "headers": {
              "Location": {
                "description": "The dashboard, `/`, with `said=` naming the notice.",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^/\\?said=[0-9a-f]{32}$"
                }
              }
            },
            "content": {
              "text/plain": {
                "schema": {
                  "$ref": "#/components/schemas/CheckoutSeeOther"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "403": {
            "$ref": "#/components/responses/ForeignPage"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/MisdirectedPage"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "description": "The sandbox stopped before the clock got there: a page says where the clock stands (what waited on the clock is gone unless `serve --data` keeps it).",
            "content": {
              "text/html; charset=utf-8": {
                "schema": {
                  "$ref": "#/components/schemas/Page"
                }
              }
            }
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/sessions/{purchaseId}": {
      "get": {
        "operationId": "getControlSession",
        "tags": [
          "control"
        ],
        "summary": "A session's state",
        "description": "Reading a session past its lifetime expires it on the wall clock, a change the sandbox keeps: hence 503.",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The session's purchase id, as Create Checkout Session gave it."
          }
        ],
        "responses": {
          "200": {
            "description": "The session as it stands.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlSession"
                }
              }
            },
            "links": {
              "RefundControlSession": {
                "operationId": "refundControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              },
              "DisputeControlSession": {
                "operationId": "disputeControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              },
              "ResolveControlSession": {
                "operationId": "resolveControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              },
              "RetryControlSessionAward": {
                "operationId": "retryControlSessionAward",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No live session has this purchase id: never made, or forgotten (unpaid two hours, or past the sandbox's limits).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headControlSession",
        "tags": [
          "control"
        ],
        "summary": "A session's state, without its body",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The session's purchase id, as Create Checkout Session gave it."
          }
        ],
        "responses": {
          "200": {
            "description": "The session as it stands."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No live session has this purchase id: never made, or forgotten (unpaid two hours, or past the sandbox's limits)."
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/sessions/{purchaseId}/complete": {
      "post": {
        "operationId": "completeControlSession",
        "tags": [
          "control"
        ],
        "summary": "The player's choice, made by a script",
        "description": "As the player on the checkout page: pay, decline, pending, close or cancel. With `pending`, `resolve` schedules the payment's resolution on the sandbox's clock.",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The session's purchase id, as Create Checkout Session gave it."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlComplete"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The session once the choice is made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlSession"
                }
              }
            },
            "links": {
              "GetControlSession": {
                "operationId": "getControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              },
              "RefundControlSession": {
                "operationId": "refundControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              },
              "DisputeControlSession": {
                "operationId": "disputeControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              },
              "ResolveControlSession": {
                "operationId": "resolveControlSession",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              },
              "RetryControlSessionAward": {
                "operationId": "retryControlSessionAward",
                "parameters": {
                  "purchaseId": "$response.body#/purchaseId"
                }
              }
            }
          },
          "400": {
            "description": "The body is not the shape, or a value is wrong: what is wrong first, then the shape. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No live session has this purchase id: never made, or forgotten (unpaid two hours, or past the sandbox's limits).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "The session is not created any more (it was completed, closed or canceled), or a free order was given a choice it does not take.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/sessions/{purchaseId}/refund": {
      "post": {
        "operationId": "refundControlSession",
        "tags": [
          "control"
        ],
        "summary": "A refund of the session's order",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The session's purchase id, as Create Checkout Session gave it."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlRefund"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The session once the refund is processed (or refused by the provider).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlSession"
                }
              }
            }
          },
          "400": {
            "description": "The body is not the shape, or the amount is not from 1 to the order's price. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No live session has this purchase id: never made, or forgotten (unpaid two hours, or past the sandbox's limits).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "The order's rules refuse it: not a paid order, refunded already, free, or past its actions.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        },
        "description": "Whether the refund is taken depends on the order, which no schema can say: it must be paid and not refunded (422 otherwise), and `amount` at most its price (400 otherwise)."
      }
    },
    "/control/v1/sessions/{purchaseId}/dispute": {
      "post": {
        "operationId": "disputeControlSession",
        "tags": [
          "control"
        ],
        "summary": "A dispute of the session's order",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The session's purchase id, as Create Checkout Session gave it."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlDispute"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The session once the dispute is opened or resolved.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlSession"
                }
              }
            }
          },
          "400": {
            "description": "The body is not the shape. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No live session has this purchase id: never made, or forgotten (unpaid two hours, or past the sandbox's limits).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "422": {
            "description": "The order's rules refuse it: not a paid order, disputed already, no dispute open, free, or past its actions.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/sessions/{purchaseId}/retry-award": {
      "post": {
        "operationId": "retryControlSessionAward",
        "tags": [
          "control"
        ],
        "summary": "Retry Award",
        "description": "The dashboard's Retry Award: the body is not read. It is taken only for an order whose award failed (Failed (Charged)) while the sandbox has an award endpoint, and answered 409 otherwise: the order's state, which no schema can say.",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The session's purchase id, as Create Checkout Session gave it."
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlEmpty"
              }
            }
          },
          "description": "May be left out (an empty body); Content-Type: application/json all the same."
        },
        "responses": {
          "202": {
            "description": "The award is sent again, `awardFlow: manual_retry`, newly signed; the session as it stands as it goes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlSession"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No live session has this purchase id: never made, or forgotten (unpaid two hours, or past the sandbox's limits).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "The sandbox has no award endpoint (--award-url), or the order is not Failed (Charged).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/sessions/{purchaseId}/resolve": {
      "post": {
        "operationId": "resolveControlSession",
        "tags": [
          "control"
        ],
        "summary": "A pending payment's resolution",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The session's purchase id, as Create Checkout Session gave it."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlResolve"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The payment resolved now: the session as it stands.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlSession"
                }
              }
            }
          },
          "202": {
            "description": "The resolution is scheduled on the sandbox's clock: the session with its `resolution`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlSession"
                }
              }
            }
          },
          "400": {
            "description": "The body is not the shape, the duration is not ISO 8601, or it goes past the end of 9999. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No live session has this purchase id: never made, or forgotten (unpaid two hours, or past the sandbox's limits).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "The session's payment is not pending.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/clock": {
      "get": {
        "operationId": "getControlClock",
        "tags": [
          "control"
        ],
        "summary": "The sandbox's clock",
        "responses": {
          "200": {
            "description": "The clock.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlClock"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headControlClock",
        "tags": [
          "control"
        ],
        "summary": "The sandbox's clock, head only",
        "responses": {
          "200": {
            "description": "The clock's head."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "post": {
        "operationId": "moveControlClock",
        "tags": [
          "control"
        ],
        "summary": "Move a virtual clock forward",
        "description": "`serve --clock virtual` only. Each expiry, scheduled resolution and delivery retry the move passes happens at its time; the answer is awaited until the last has ended.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlClockMove"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The clock is there: every timer it passed fired, in time order; the answer comes once they all have.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlClockMoved"
                }
              }
            }
          },
          "400": {
            "description": "The body is not exactly one of advance and to, the text is no ISO 8601 duration or time, or it goes past the end of 9999. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "The sandbox runs on the wall clock, the clock is moving already, or the time is not after the clock's.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "description": "The sandbox could not keep the clock's time on disk, so nothing moved; or it stopped before the clock got there.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/health": {
      "get": {
        "operationId": "getControlHealth",
        "tags": [
          "control"
        ],
        "summary": "Whether the sandbox answers",
        "responses": {
          "200": {
            "description": "The sandbox answers.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlHealth"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headControlHealth",
        "tags": [
          "control"
        ],
        "summary": "Whether the sandbox answers, head only",
        "responses": {
          "200": {
            "description": "The sandbox answers."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/export": {
      "get": {
        "operationId": "exportControlState",
        "tags": [
          "control"
        ],
        "summary": "Everything the sandbox holds",
        "responses": {
          "200": {
            "description": "Everything the sandbox holds, as a journal written anew holds it: one JSON object a line, which `serve --import` reads back.",
            "headers": {
              "Content-Disposition": {
                "required": true,
                "description": "The name a browser saves it under.",
                "schema": {
                  "type": "string",
                  "const": "attachment; filename=\"paylinks-sandbox.jsonl\""
                }
              }
            },
            "content": {
              "application/x-ndjson": {
                "schema": {
                  "type": "string",
                  "pattern": "^(\\{[^\\n]*\\}\\n)+$",
                  "description": "JSON lines: the format's line first, then the clock, sessions, deliveries, price points and blocked players."
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headControlExport",
        "tags": [
          "control"
        ],
        "summary": "The export's head",
        "responses": {
          "200": {
            "description": "The export's head.",
            "headers": {
              "Content-Disposition": {
                "required": true,
                "description": "The name a browser saves it under.",
                "schema": {
                  "type": "string",
                  "const": "attachment; filename=\"paylinks-sandbox.jsonl\""
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/blocked-players": {
      "get": {
        "operationId": "listBlockedPlayers",
        "tags": [
          "control"
        ],
        "summary": "The blocked players",
        "responses": {
          "200": {
            "description": "The blocked players.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlBlockedPlayers"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headBlockedPlayers",
        "tags": [
          "control"
        ],
        "summary": "The blocked players, head only",
        "responses": {
          "200": {
            "description": "The list's head."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "post": {
        "operationId": "blockPlayer",
        "tags": [
          "control"
        ],
        "summary": "Block a player",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlBlock"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The player was blocked already. The list.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlBlockedPlayers"
                }
              }
            }
          },
          "201": {
            "description": "The player is blocked: Create Checkout Session answers their new sessions 403. The list.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlBlockedPlayers"
                }
              }
            },
            "links": {
              "UnblockPlayer": {
                "operationId": "unblockPlayer",
                "parameters": {
                  "id": "$response.body#/blockedPlayers/0"
                }
              }
            }
          },
          "400": {
            "description": "The body is not {\"id\": \"PLAYER\"}, or the id is empty, longer than 512 bytes, or holds a control character. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "The list holds 10,000 players already.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/blocked-players/{id}": {
      "delete": {
        "operationId": "unblockPlayer",
        "tags": [
          "control"
        ],
        "summary": "Unblock a player",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The player's customer.id, percent-encoded."
          }
        ],
        "responses": {
          "200": {
            "description": "The player is unblocked. The list.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlBlockedPlayers"
                }
              }
            }
          },
          "400": {
            "description": "The id is not percent-encoded UTF-8 text. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "The player is not blocked.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/reset": {
      "post": {
        "operationId": "resetControlState",
        "tags": [
          "control"
        ],
        "summary": "Forget every session and delivery",
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ControlEmpty"
              }
            }
          },
          "description": "May be left out (an empty body); Content-Type: application/json all the same."
        },
        "responses": {
          "200": {
            "description": "The sandbox is as at a start with the same seed; a virtual clock stays where it is.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlReset"
                }
              }
            }
          },
          "400": {
            "description": "The body is neither empty nor {}. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "The clock is moving, or a delivery to the game's server is under way.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/deliveries": {
      "get": {
        "operationId": "listDeliveries",
        "tags": [
          "control"
        ],
        "summary": "What was sent to the game's server",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "query",
            "schema": {
              "type": "string"
            },
            "description": "Only this session's."
          },
          {
            "name": "kind",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "award",
                "event"
              ]
            }
          },
          {
            "name": "failed",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "true",
                "false"
              ]
            },
            "description": "true: only those whose last attempt failed."
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "schema": {
              "type": "string",
              "pattern": "^dl_[0-9]+$"
            },
            "description": "The nextCursor of the page before."
          }
        ],
        "responses": {
          "200": {
            "description": "A page of deliveries, newest first.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeliveryPage"
                }
              }
            },
            "links": {
              "GetDelivery": {
                "operationId": "getDelivery",
                "parameters": {
                  "id": "$response.body#/deliveries/0/id"
                }
              },
              "ReplayDelivery": {
                "operationId": "replayDelivery",
                "parameters": {
                  "id": "$response.body#/deliveries/0/id"
                }
              }
            }
          },
          "400": {
            "description": "A query parameter is unknown or its value wrong. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headListDeliveries",
        "tags": [
          "control"
        ],
        "summary": "What was sent to the game's server, without its body",
        "parameters": [
          {
            "name": "purchaseId",
            "in": "query",
            "schema": {
              "type": "string"
            },
            "description": "Only this session's."
          },
          {
            "name": "kind",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "award",
                "event"
              ]
            }
          },
          {
            "name": "failed",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "true",
                "false"
              ]
            },
            "description": "true: only those whose last attempt failed."
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "schema": {
              "type": "string",
              "pattern": "^dl_[0-9]+$"
            },
            "description": "The nextCursor of the page before."
          }
        ],
        "responses": {
          "200": {
            "description": "A page of deliveries, newest first."
          },
          "400": {
            "description": "A query parameter is unknown or its value wrong. Also the transport's answer to a request it cannot read as HTTP/1.1."
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/deliveries/{id}": {
      "get": {
        "operationId": "getDelivery",
        "tags": [
          "control"
        ],
        "summary": "One delivery",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The delivery's id, such as dl_1."
          }
        ],
        "responses": {
          "200": {
            "description": "The delivery.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Delivery"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No delivery has this id.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headDelivery",
        "tags": [
          "control"
        ],
        "summary": "One delivery, without its body",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The delivery's id, such as dl_1."
          }
        ],
        "responses": {
          "200": {
            "description": "The delivery."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "404": {
            "description": "No delivery has this id."
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/control/v1/deliveries/{id}/replay": {
      "post": {
        "operationId": "replayDelivery",
        "tags": [
          "control"
        ],
        "summary": "Send a delivery again",
        "description": "The replay changes nothing the sandbox keeps until it ends, so it is never answered 503.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The delivery's id, such as dl_1."
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DeliveryReplayRequest"
              }
            }
          },
          "description": "May be left out (an empty body); Content-Type: application/json all the same."
        },
        "responses": {
          "202": {
            "description": "The replay is under way.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeliveryReplaying"
                }
              }
            }
          },
          "400": {
            "description": "The body is not {}, {\"resign\": true} or {\"resign\": false}. Also the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No delivery has this id.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "The sandbox has nowhere to send it: no --award-url or --events-url.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Problem"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/NotJSON"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/reporting/reports/orders": {
      "post": {
        "operationId": "getOrdersReport",
        "tags": [
          "reporting"
        ],
        "summary": "The orders report",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ReportOrdersQuery"
              }
            }
          }
        },
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The orders created in the window, with a session's order state past created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportOrders"
                }
              }
            }
          },
          "400": {
            "description": "The query is refused: each reason numbered. Or the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/ReportError"
                    },
                    {
                      "$ref": "#/components/schemas/Problem"
                    }
                  ]
                }
              }
            }
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportError"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/reporting/financial-data/transactions": {
      "get": {
        "operationId": "getTransactions",
        "tags": [
          "reporting"
        ],
        "summary": "The financial transactions",
        "description": "Each parameter once: one given twice is refused, as is one the API does not take.",
        "parameters": [
          {
            "name": "startDate",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?Z)?$",
              "description": "An ISO 8601 date (its whole day, for endDate) or time in UTC ending in Z: 2024-06-12, 2024-06-12T08:00:00Z. startDate may not be after endDate."
            }
          },
          {
            "name": "endDate",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?Z)?$",
              "description": "An ISO 8601 date (its whole day, for endDate) or time in UTC ending in Z: 2024-06-12, 2024-06-12T08:00:00Z. startDate may not be after endDate."
            }
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 10000,
              "default": 10
            }
          },
          {
            "name": "sortDirection",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "asc",
                "desc"
              ],
              "default": "asc"
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "schema": {
              "type": "string",
              "pattern": "^c_[0-9]+$"
            },
            "description": "The nextCursor of the page before."
          }
        ],
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The money movements in the window.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportTransactions"
                }
              }
            }
          },
          "400": {
            "description": "The query is refused: each reason numbered. Or the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/ReportError"
                    },
                    {
                      "$ref": "#/components/schemas/Problem"
                    }
                  ]
                }
              }
            }
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportError"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headTransactions",
        "tags": [
          "reporting"
        ],
        "summary": "The financial transactions, without its body",
        "parameters": [
          {
            "name": "startDate",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?Z)?$",
              "description": "An ISO 8601 date (its whole day, for endDate) or time in UTC ending in Z: 2024-06-12, 2024-06-12T08:00:00Z. startDate may not be after endDate."
            }
          },
          {
            "name": "endDate",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?Z)?$",
              "description": "An ISO 8601 date (its whole day, for endDate) or time in UTC ending in Z: 2024-06-12, 2024-06-12T08:00:00Z. startDate may not be after endDate."
            }
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 10000,
              "default": 10
            }
          },
          {
            "name": "sortDirection",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "asc",
                "desc"
              ],
              "default": "asc"
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "schema": {
              "type": "string",
              "pattern": "^c_[0-9]+$"
            },
            "description": "The nextCursor of the page before."
          }
        ],
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The money movements in the window."
          },
          "400": {
            "description": "The query is refused: each reason numbered. Or the transport's answer to a request it cannot read as HTTP/1.1."
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's."
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock."
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/v1/price-points/localized/lookup": {
      "post": {
        "operationId": "lookUpPricePoints",
        "tags": [
          "price-localization"
        ],
        "summary": "Get Price Points for a Country",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PricePointLookupRequest"
              }
            }
          }
        },
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The local prices of the points asked for.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointLookup"
                }
              }
            }
          },
          "400": {
            "description": "Invalid request body, too many price points, a value that is not a positive integer, or a country malformed or not supported. Or the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/PricePointMessage"
                    },
                    {
                      "$ref": "#/components/schemas/Problem"
                    }
                  ]
                }
              }
            }
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/v1/price-points": {
      "get": {
        "operationId": "listPricePoints",
        "tags": [
          "price-localization"
        ],
        "summary": "Get All Price Points",
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "Every price point, cheapest first.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headListPricePoints",
        "tags": [
          "price-localization"
        ],
        "summary": "Get All Price Points, without its body",
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "Every price point, cheapest first."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}."
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}."
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "post": {
        "operationId": "createPricePoint",
        "tags": [
          "price-localization"
        ],
        "summary": "Create Price Point",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PricePointCreate"
              }
            }
          }
        },
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "201": {
            "description": "The point created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePoint"
                }
              }
            },
            "links": {
              "GetPricePoint": {
                "operationId": "getPricePoint",
                "parameters": {
                  "priceInUsdCents": "$response.body#/priceInUsdCents"
                }
              },
              "UpdatePricePoint": {
                "operationId": "updatePricePoint",
                "parameters": {
                  "priceInUsdCents": "$response.body#/priceInUsdCents"
                }
              },
              "DeletePricePoint": {
                "operationId": "deletePricePoint",
                "parameters": {
                  "priceInUsdCents": "$response.body#/priceInUsdCents"
                }
              }
            }
          },
          "400": {
            "description": "\"Invalid request body\", or \"Country code XX not found in existing custom pricing.\" Or the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/PricePointMessage"
                    },
                    {
                      "$ref": "#/components/schemas/Problem"
                    }
                  ]
                }
              }
            }
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "\"Cannot create new pricing. The price point already exists.\"",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    },
    "/v1/price-points/{priceInUsdCents}": {
      "get": {
        "operationId": "getPricePoint",
        "tags": [
          "price-localization"
        ],
        "summary": "Get Price Point",
        "parameters": [
          {
            "name": "priceInUsdCents",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The point's US cents, digits alone."
          }
        ],
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The point.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePoint"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "404": {
            "description": "No price point of the path's cents: \"Price point N not found.\", or \"Price point not found.\" when the path gives none.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "head": {
        "operationId": "headPricePoint",
        "tags": [
          "price-localization"
        ],
        "summary": "Get Price Point, without its body",
        "parameters": [
          {
            "name": "priceInUsdCents",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The point's US cents, digits alone."
          }
        ],
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The point."
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}."
          },
          "404": {
            "description": "No price point of the path's cents: \"Price point N not found.\", or \"Price point not found.\" when the path gives none."
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}."
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "put": {
        "operationId": "updatePricePoint",
        "tags": [
          "price-localization"
        ],
        "summary": "Update Price Point",
        "parameters": [
          {
            "name": "priceInUsdCents",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The point's US cents, digits alone."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PricePointUpdate"
              }
            }
          }
        },
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The point as updated.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePoint"
                }
              }
            }
          },
          "400": {
            "description": "\"Invalid request body\", or \"Country code XX not found in existing custom pricing.\" Or the transport's answer to a request it cannot read as HTTP/1.1.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/PricePointMessage"
                    },
                    {
                      "$ref": "#/components/schemas/Problem"
                    }
                  ]
                }
              }
            }
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No price point of the path's cents: \"Price point N not found.\", or \"Price point not found.\" when the path gives none.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "409": {
            "description": "\"Cannot create new pricing. The price point already exists.\"",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      },
      "delete": {
        "operationId": "deletePricePoint",
        "tags": [
          "price-localization"
        ],
        "summary": "Delete Price Point",
        "parameters": [
          {
            "name": "priceInUsdCents",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "The point's US cents, digits alone."
          }
        ],
        "security": [
          {
            "publisherToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "The point as it was.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePoint"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Malformed"
          },
          "401": {
            "description": "The x-publisher-token is missing, or not the sandbox's: {\"message\": \"Unauthorized\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "404": {
            "description": "No price point of the path's cents: \"Price point N not found.\", or \"Price point not found.\" when the path gives none.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "408": {
            "$ref": "#/components/responses/TooSlow"
          },
          "413": {
            "$ref": "#/components/responses/BodyTooLarge"
          },
          "421": {
            "$ref": "#/components/responses/Misdirected"
          },
          "429": {
            "description": "Past --rate-limit's requests in 60 seconds of the sandbox's clock: {\"message\": \"Rate limit exceeded.\"}.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PricePointMessage"
                }
              }
            }
          },
          "431": {
            "$ref": "#/components/responses/HeadersTooLarge"
          },
          "501": {
            "$ref": "#/components/responses/UnknownTransferCoding"
          },
          "503": {
            "$ref": "#/components/responses/NotKept"
          },
          "505": {
            "$ref": "#/components/responses/UnsupportedVersion"
          }
        }
      }
    }
  },
  "webhooks": {
    "grantAward": {
      "post": {
        "operationId": "grantAward",
        "tags": [
          "webhooks"
        ],
        "summary": "Grant Award Callback: give the player what they paid for",
        "description": "Sent to `--award-url` once a payment is final: at once, then, on any answer that is not a grant (or none within 10 s), twice more, 10 s apart (`--award-wait`). When every attempt failed the order is `charge_failed` and the client's purchase fails with 3003; Retry Award sends the same body again with `awardFlow` `manual_retry`, newly signed. Every attempt carries the same `orderId`: the game's server grants it once and answers each resend with the same `publisherPurchaseId`.",
        "parameters": [
          {
            "name": "Content-Type",
            "in": "header",
            "required": true,
            "description": "Always `application/json` (listed for completeness: OpenAPI takes it from the request body's media type).",
            "schema": {
              "type": "string",
              "const": "application/json"
            }
          },
          {
            "name": "x-publisher-token",
            "in": "header",
            "required": true,
            "description": "The studio's publisher token (`--publisher-token`, `PAYLINKS_PUBLISHER_TOKEN`, else the demo token `paylinks-demo-publisher-token`). The game's server should check it.",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "signature",
            "in": "header",
            "required": true,
            "description": "`t=<unix milliseconds>,v1=<hex>`: `t` is when the request is sent, in Unix **milliseconds**; `v1` is the HMAC-SHA256 of `t + \".\" + body` (the exact bytes sent) under the studio's main key (`--main-key-file`, `PAYLINKS_MAIN_KEY`, else the demo key), as 64 lower-case hex digits. One `v1`, no spaces. Every attempt is signed anew. The game's server recomputes it over the raw bytes, compares in constant time, and refuses a `t` more than 5 minutes from its clock. `t` is read from the sandbox's clock: with `serve --clock virtual` it is the virtual time, so a server that checks it must read its time from the sandbox too (`GET /control/v1/clock`, as the example game server's `--clock-url` does).",
            "schema": {
              "type": "string",
              "pattern": "^t=[0-9]+,v1=[0-9a-f]{64}$"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AwardGrant"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Granted, only with a JSON object whose `publisherPurchaseId` is a non-empty string. A 200 without one (no JSON, not an object, the id missing, empty, or a number) counts as a failure and is retried.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AwardGranted"
                }
              }
            }
          },
          "4XX": {
            "description": "Refused: a failure, retried as above.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AwardRefused"
                }
              }
            }
          },
          "5XX": {
            "description": "Failed: retried as above.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AwardRefused"
                }
              }
            }
          },
          "default": {
            "description": "Any other status, or no answer within 10 s: a failure, retried as above."
          }
        }
      }
    },
    "eventV1": {
      "post": {
        "operationId": "eventV1",
        "tags": [
          "webhooks"
        ],
        "summary": "Events V1: what happened to an order (the older flat payload)",
        "description": "Sent to `--events-url` with `--events-version v1`, for each step of an order's life. Informational. The first attempt at once; retried only after a server error (5xx), up to 3 times, 5 minutes apart (`--events-wait`); any other answer, or none within 10 s, ends it. V1 carries no event id: `appChargeOrderId` and `event` tell one event from another.",
        "parameters": [
          {
            "name": "Content-Type",
            "in": "header",
            "required": true,
            "description": "Always `application/json` (listed for completeness: OpenAPI takes it from the request body's media type).",
            "schema": {
              "type": "string",
              "const": "application/json"
            }
          },
          {
            "name": "x-publisher-token",
            "in": "header",
            "required": true,
            "description": "The studio's publisher token (`--publisher-token`, `PAYLINKS_PUBLISHER_TOKEN`, else the demo token `paylinks-demo-publisher-token`). The game's server should check it.",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "x-project-id",
            "in": "header",
            "required": true,
            "description": "The studio's project id (`--project-id`, default `paylinks-demo-project`).",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "signature",
            "in": "header",
            "required": true,
            "description": "`t=<unix milliseconds>,v1=<hex>`: `t` is when the request is sent, in Unix **milliseconds**; `v1` is the HMAC-SHA256 of `t + \".\" + body` (the exact bytes sent) under the events key (`--events-key-file`), else the studio's main key, as 64 lower-case hex digits. One `v1`, no spaces. Every attempt is signed anew. The game's server recomputes it over the raw bytes, compares in constant time, and refuses a `t` more than 5 minutes from its clock. `t` is read from the sandbox's clock: with `serve --clock virtual` it is the virtual time, so a server that checks it must read its time from the sandbox too (`GET /control/v1/clock`, as the example game server's `--clock-url` does).",
            "schema": {
              "type": "string",
              "pattern": "^t=[0-9]+,v1=[0-9a-f]{64}$"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/EventV1"
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "description": "Delivered. The body is not read."
          },
          "5XX": {
            "description": "A server error: retried, up to 3 times, 5 minutes apart."
          },
          "default": {
            "description": "Any other status: not retried; the attempt is recorded as failed. No answer within 10 s: not retried either."
          }
        }
      }
    },
    "eventV2": {
      "post": {
        "operationId": "eventV2",
        "tags": [
          "webhooks"
        ],
        "summary": "Events V2: what happened to an order (the current envelope)",
        "description": "Sent to `--events-url` with `--events-version v2` (the default), for each step of an order's life. Informational: the award, not an event, grants the items. The first attempt at once; on any answer that is not 2xx, or none within 10 s, retried 15 s, 15 s more and 15 min more later (4 attempts in all; `--events-wait`), with the same `eventId`. Events can arrive twice and out of order. Answer 2xx to every verified event, even one the game cannot use; 401 to a missing or wrong signature.",
        "parameters": [
          {
            "name": "Content-Type",
            "in": "header",
            "required": true,
            "description": "Always `application/json` (listed for completeness: OpenAPI takes it from the request body's media type).",
            "schema": {
              "type": "string",
              "const": "application/json"
            }
          },
          {
            "name": "x-publisher-token",
            "in": "header",
            "required": true,
            "description": "The studio's publisher token (`--publisher-token`, `PAYLINKS_PUBLISHER_TOKEN`, else the demo token `paylinks-demo-publisher-token`). The game's server should check it.",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "x-project-id",
            "in": "header",
            "required": true,
            "description": "The studio's project id (`--project-id`, default `paylinks-demo-project`).",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "signature",
            "in": "header",
            "required": true,
            "description": "`t=<unix milliseconds>,v1=<hex>`: `t` is when the request is sent, in Unix **milliseconds**; `v1` is the HMAC-SHA256 of `t + \".\" + body` (the exact bytes sent) under the events key (`--events-key-file`), else the studio's main key, as 64 lower-case hex digits. One `v1`, no spaces. Every attempt is signed anew. The game's server recomputes it over the raw bytes, compares in constant time, and refuses a `t` more than 5 minutes from its clock. `t` is read from the sandbox's clock: with `serve --clock virtual` it is the virtual time, so a server that checks it must read its time from the sandbox too (`GET /control/v1/clock`, as the example game server's `--clock-url` does).",
            "schema": {
              "type": "string",
              "pattern": "^t=[0-9]+,v1=[0-9a-f]{64}$"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/EventV2"
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "description": "Delivered. The body is not read."
          },
          "401": {
            "description": "The signature is missing or wrong: retried as any other answer that is not 2xx."
          },
          "default": {
            "description": "Any other status, or no answer within 10 s: retried as above."
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "publisherToken": {
        "type": "apiKey",
        "in": "header",
        "name": "x-publisher-token",
        "description": "The studio's publisher token: `serve --publisher-token`, else `PAYLINKS_PUBLISHER_TOKEN`, else the demo token. Every copy of the header must be this token."
      },
      "checkoutSessionToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "A session's own `checkoutSessionToken`, which Cancel Checkout Session takes as `Authorization: Bearer`."
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
        "type": "string",
        "pattern": "^<!DOCTYPE html>\n<html lang=\"en\">\n"
      },
      "SessionRequest": {
        "description": "Create Checkout Session's body (`server-contract.md`, section 2), checked field by field; every problem is reported, in the order of these fields. Members the sandbox does not read (`receiptMetadata`, `attributes`, an item's `assetUrl`, ...) are taken and ignored. What JSON Schema cannot say: `customer.identitySignals.firstSeenAt` must be before the sandbox's clock, `sessionMetadata` may nest at most 32 levels, and `redirectUrl` must be an absolute URL of an allowed scheme.",
        "type": "object",
        "required": [
          "priceDetails",
          "offer",
          "customer"
        ],
        "properties": {
          "priceDetails": {
            "type": "object",
            "required": [
              "price",
              "currency"
            ],
            "properties": {
              "price": {
                "type": "integer",
                "minimum": 0,
                "maximum": 1000000000000,
                "description": "The price in the currency's minor units (1000 is $10.00; JPY in whole yen)."
              },
              "currency": {
                "type": "string",
                "description": "An active ISO 4217 code, such as USD or EUR.",
                "enum": [
                  "AED",
                  "AFN",
                  "ALL",
                  "AMD",
                  "ANG",
                  "AOA",
                  "ARS",
                  "AUD",
                  "AWG",
                  "AZN",
                  "BAM",
                  "BBD",
                  "BDT",
                  "BGN",
                  "BHD",
                  "BIF",
                  "BMD",
                  "BND",
                  "BOB",
                  "BOV",
                  "BRL",
                  "BSD",
                  "BTN",
                  "BWP",
                  "BYN",
                  "BZD",
                  "CAD",
                  "CDF",
                  "CHE",
                  "CHF",
                  "CHW",
                  "CLF",
                  "CLP",
                  "CNY",
                  "COP",
                  "COU",
                  "CRC",
                  "CUC",
                  "CUP",
                  "CVE",
                  "CZK",
                  "DJF",
                  "DKK",
                  "DOP",
                  "DZD",
                  "EGP",
                  "ERN",
                  "ETB",
                  "EUR",
                  "FJD",
                  "FKP",
                  "GBP",
                  "GEL",
                  "GHS",
                  "GIP",
                  "GMD",
                  "GNF",
                  "GTQ",
                  "GYD",
                  "HKD",
                  "HNL",
                  "HTG",
                  "HUF",
                  "IDR",
                  "ILS",
                  "INR",
                  "IQD",
                  "IRR",
                  "ISK",
                  "JMD",
                  "JOD",
                  "JPY",
                  "KES",
                  "KGS",
                  "KHR",
                  "KMF",
                  "KPW",
                  "KRW",
                  "KWD",
                  "KYD",
                  "KZT",
                  "LAK",
                  "LBP",
                  "LKR",
                  "LRD",
                  "LSL",
                  "LYD",
                  "MAD",
                  "MDL",
                  "MGA",
                  "MKD",
                  "MMK",
                  "MNT",
                  "MOP",
                  "MRU",
                  "MUR",
                  "MVR",
                  "MWK",
                  "MXN",
                  "MXV",
                  "MYR",
                  "MZN",
                  "NAD",
                  "NGN",
                  "NIO",
                  "NOK",
                  "NPR",
                  "NZD",
                  "OMR",
                  "PAB",
                  "PEN",
                  "PGK",
                  "PHP",
                  "PKR",
                  "PLN",
                  "PYG",
                  "QAR",
                  "RON",
                  "RSD",
                  "RUB",
                  "RWF",
                  "SAR",
                  "SBD",
                  "SCR",
                  "SDG",
                  "SEK",
                  "SGD",
                  "SHP",
                  "SLE",
                  "SLL",
                  "SOS",
                  "SRD",
                  "SSP",
                  "STN",
                  "SVC",
                  "SYP",
                  "SZL",
                  "THB",
                  "TJS",
                  "TMT",
                  "TND",
                  "TOP",
                  "TRY",
                  "TTD",
                  "TWD",
                  "TZS",
                  "UAH",
                  "UGX",
                  "USD",
                  "USN",
                  "UYI",
                  "UYU",
                  "UYW",
                  "UZS",
                  "VED",
                  "VES",
                  "VND",
                  "VUV",
                  "WST",
                  "XAF",
                  "XCD",
                  "XCG",
                  "XOF",
                  "XPF",
                  "YER",
                  "ZAR",
                  "ZMW",
                  "ZWG",
                  "ZWL"
                ]
              }
            }
          },
          "offer": {
            "type": "object",
            "required": [
              "name",
              "sku"
            ],
            "properties": {
              "name": {
                "type": "string",
                "minLength": 1
              },
              "sku": {
                "type": "string",
                "minLength": 1,
                "description": "The game's offer id."
              },
              "displayName": {
                "type": "string"
              },
              "pricePointMetadata": {
                "type": "integer",
                "minimum": 0,
                "maximum": 1000000000000,
                "description": "The base price of the offer's price point, in US cents."
              },
              "assetUrl": {
                "type": "string"
              },
              "description": {
                "type": "string"
              }
            }
          },
          "items": {
            "type": "array",
            "description": "What the offer gives; without it, the award grants no products.",
            "items": {
              "type": "object",
              "required": [
                "name",
                "sku",
                "quantity"
              ],
              "properties": {
                "name": {
                  "type": "string"
                },
                "sku": {
                  "type": "string"
                },
                "quantity": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 9223372036854775807
                },
                "assetUrl": {
                  "type": "string"
                },
                "quantityDisplay": {
                  "type": "string"
                },
                "displayName": {
                  "type": "string"
                }
              }
            }
          },
          "customer": {
            "type": "object",
            "required": [
              "id"
            ],
            "properties": {
              "id": {
                "type": "string",
                "minLength": 1,
                "description": "The player's id: the customerId the game's client gives the SDK."
              },
              "email": {
                "type": "string"
              },
              "identitySignals": {
                "type": "object",
                "properties": {
                  "firstSeenAt": {
                    "type": "string",
                    "format": "date-time",
                    "description": "When the game first saw the player, RFC 3339; it must be before the sandbox's clock (400 otherwise)."
                  }
                }
              }
            }
          },
          "countryCode2": {
            "type": "string",
            "description": "An officially assigned ISO 3166-1 alpha-2 code, upper case; US when absent.",
            "enum": [
              "AD",
              "AE",
              "AF",
              "AG",
              "AI",
              "AL",
              "AM",
              "AO",
              "AQ",
              "AR",
              "AS",
              "AT",
              "AU",
              "AW",
              "AX",
              "AZ",
              "BA",
              "BB",
              "BD",
              "BE",
              "BF",
              "BG",
              "BH",
              "BI",
              "BJ",
              "BL",
              "BM",
              "BN",
              "BO",
              "BQ",
              "BR",
              "BS",
              "BT",
              "BV",
              "BW",
              "BY",
              "BZ",
              "CA",
              "CC",
              "CD",
              "CF",
              "CG",
              "CH",
              "CI",
              "CK",
              "CL",
              "CM",
              "CN",
              "CO",
              "CR",
              "CU",
              "CV",
              "CW",
              "CX",
              "CY",
              "CZ",
              "DE",
              "DJ",
              "DK",
              "DM",
              "DO",
              "DZ",
              "EC",
              "EE",
              "EG",
              "EH",
              "ER",
              "ES",
              "ET",
              "FI",
              "FJ",
              "FK",
              "FM",
              "FO",
              "FR",
              "GA",
              "GB",
              "GD",
              "GE",
              "GF",
              "GG",
              "GH",
              "GI",
              "GL",
              "GM",
              "GN",
              "GP",
              "GQ",
              "GR",
              "GS",
              "GT",
              "GU",
              "GW",
              "GY",
              "HK",
              "HM",
              "HN",
              "HR",
              "HT",
              "HU",
              "ID",
              "IE",
              "IL",
              "IM",
              "IN",
              "IO",
              "IQ",
              "IR",
              "IS",
              "IT",
              "JE",
              "JM",
              "JO",
              "JP",
              "KE",
              "KG",
              "KH",
              "KI",
              "KM",
              "KN",
              "KP",
              "KR",
              "KW",
              "KY",
              "KZ",
              "LA",
              "LB",
              "LC",
              "LI",
              "LK",
              "LR",
              "LS",
              "LT",
              "LU",
              "LV",
              "LY",
              "MA",
              "MC",
              "MD",
              "ME",
              "MF",
              "MG",
              "MH",
              "MK",
              "ML",
              "MM",
              "MN",
              "MO",
              "MP",
              "MQ",
              "MR",
              "MS",
              "MT",
              "MU",
              "MV",
              "MW",
              "MX",
              "MY",
              "MZ",
              "NA",
              "NC",
              "NE",
              "NF",
              "NG",
              "NI",
              "NL",
              "NO",
              "NP",
              "NR",
              "NU",
              "NZ",
              "OM",
              "PA",
              "PE",
              "PF",
              "PG",
              "PH",
              "PK",
              "PL",
              "PM",
              "PN",
              "PR",
              "PS",
              "PT",
              "PW",
              "PY",
              "QA",
              "RE",
              "RO",
              "RS",
              "RU",
              "RW",
              "SA",
              "SB",
              "SC",
              "SD",
              "SE",
              "SG",
              "SH",
              "SI",
              "SJ",
              "SK",
              "SL",
              "SM",
              "SN",
              "SO",
              "SR",
              "SS",
              "ST",
              "SV",
              "SX",
              "SY",
              "SZ",
              "TC",
              "TD",
              "TF",
              "TG",
              "TH",
              "TJ",
              "TK",
              "TL",
              "TM",
              "TN",
              "TO",
              "TR",
              "TT",
              "TV",
              "TW",
              "TZ",
              "UA",
              "UG",
              "UM",
              "US",
              "UY",
              "UZ",
              "VA",
              "VC",
              "VE",
              "VG",
              "VI",
              "VN",
              "VU",
              "WF",
              "WS",
              "YE",
              "YT",
              "ZA",
              "ZM",
              "ZW"
            ]
          },
          "receiptMetadata": {
            "type": "object",
            "properties": {
              "locale": {
                "type": "string"
              }
            }
          },
          "sessionMetadata": {
            "type": "object",
            "description": "Free-form, nested at most 32 levels; echoed in the Grant Award Callback."
          },
          "attributes": {
            "type": "object"
          },
          "redirectUrl": {
            "type": "string",
            "maxLength": 2048,
            "description": "Link Out without the SDK: an absolute URL (https, http with a host, or the game's own scheme; not javascript:, data:, ...), without spaces or control characters. Once the session ends, the checkout sends the browser there with `status=success`, `fail` or `cancel`."
          }
        }
      },
      "SessionCreated": {
        "description": "The session created: hand `purchaseId` and `parsedUrl` to the game's client exactly as they are.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "checkoutSessionToken",
          "purchaseId",
          "url",
          "parsedUrl"
        ],
        "properties": {
          "checkoutSessionToken": {
            "type": "string",
            "pattern": "^[A-Za-z0-9]{32}$",
            "description": "The session's token: its checkout page's path, and Cancel's bearer token."
          },
          "purchaseId": {
            "type": "string",
            "pattern": "^pr_[a-z0-9]{24}$"
          },
          "url": {
            "type": "string",
            "pattern": "/checkout$",
            "description": "The checkout's base URL (deprecated by Appcharge): `--public-url`, else `http://` and the request's Host, then `/checkout`."
          },
          "parsedUrl": {
            "type": "string",
            "pattern": "/checkout/[A-Za-z0-9]{32}#boot=pr_[a-z0-9]{24}$",
            "description": "`url`, `/`, the token, then `#boot=` and the purchase id."
          }
        }
      },
      "CheckoutUnauthorized": {
        "description": "401 in the shape of Appcharge's reporting API, which the sandbox follows where the checkout API documents none.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "statusCode",
          "error",
          "message",
          "requestUrl"
        ],
        "properties": {
          "statusCode": {
            "const": 401,
            "type": "integer"
          },
          "error": {
            "const": "Unauthorized",
            "type": "string"
          },
          "message": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "validationErrorNumber",
                "error"
              ],
              "properties": {
                "validationErrorNumber": {
                  "type": "integer",
                  "minimum": 1
                },
                "error": {
                  "type": "string"
                }
              }
            }
          },
          "requestUrl": {
            "type": "string",
            "description": "The request's path."
          }
        }
      },
      "CheckoutMessage": {
        "description": "An answer of Appcharge's in its own words: a message alone.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "message"
        ],
        "properties": {
          "message": {
            "type": "string"
          }
        }
      },
      "CheckoutBlockedPlayer": {
        "description": "Create Checkout Session's refusal of a blocked player, in the words of its reference.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "message"
        ],
        "properties": {
          "message": {
            "const": "Blocked player: this player has been blocked. See the blocked player list in the dashboard for more info.",
            "type": "string"
          }
        }
      },
      "CheckoutForbiddenResource": {
        "description": "Initiate Refund's refusal of a call without the sandbox's publisher token or without an `x-user-id`, in Appcharge's shape.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "result",
          "errCode",
          "message"
        ],
        "properties": {
          "result": {
            "type": "null"
          },
          "errCode": {
            "const": -1,
            "type": "integer"
          },
          "message": {
            "const": "Forbidden resource",
            "type": "string"
          }
        }
      },
      "CheckoutCancelled": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "isOrderCancelled"
        ],
        "properties": {
          "isOrderCancelled": {
            "type": "boolean",
            "description": "true: the session takes no more payments (cancelled now, or cancelled, closed, expired or declined before); false: its order is paid (refunded and disputed ones too) or its payment is pending, which the cancel leaves as they are (the log says why)."
          }
        }
      },
      "CheckoutRefundAccepted": {
        "description": "`{}`: the refund was accepted.",
        "type": "object",
        "additionalProperties": false,
        "properties": {}
      },
      "CheckoutSeeOther": {
        "description": "The body of a 303: `See ` and the `Location`, then a line feed.",
        "type": "string",
        "pattern": "^See \\S+\\n$"
      },
      "CheckoutChoiceForm": {
        "description": "The checkout page's form: the player's choice, or a pending payment that resolves later.",
        "type": "object",
        "required": [
          "formToken"
        ],
        "properties": {
          "formToken": {
            "type": "string",
            "description": "The token of this run of the sandbox that every form of its pages carries in a hidden field: a form without it, or with another run's, is refused 403 before it is read."
          },
          "choice": {
            "type": "string",
            "enum": [
              "pay",
              "decline",
              "pending",
              "close",
              "cancel"
            ],
            "description": "What the player does: pay (collect, for a free order), the card declined, the payment left pending, the window closed, the purchase cancelled. Needed unless `resolve` is given; a free order takes only pay, close and cancel."
          },
          "paymentMethod": {
            "type": "string",
            "maxLength": 64,
            "description": "What the player pays with, at most 64 bytes, such as Visa."
          },
          "resolve": {
            "type": "string",
            "enum": [
              "succeeded",
              "failed"
            ],
            "description": "Leave the payment pending and resolve it so `minutes` later on the sandbox's clock (`choice` is then ignored)."
          },
          "minutes": {
            "type": "integer",
            "minimum": 1,
            "maximum": 525600,
            "description": "With `resolve`: after how many minutes, from 1 to 525600 (a year); spaces around it are allowed."
          }
        },
        "anyOf": [
          {
            "required": [
              "choice"
            ]
          },
          {
            "required": [
              "resolve"
            ]
          }
        ]
      },
      "DashboardOrderForm": {
        "description": "The forms of an order's page; which fields count depends on the action. A value the action cannot take is not refused with a status: the form goes back to the page (303), whose notice says why.",
        "type": "object",
        "required": [
          "formToken"
        ],
        "properties": {
          "formToken": {
            "type": "string",
            "description": "The token of this run of the sandbox that every form of its pages carries in a hidden field: a form without it, or with another run's, is refused 403 before it is read."
          },
          "amount": {
            "type": "string",
            "description": "`refund`: the minor units to give back, a whole number from 1 to the order's price, spaces around it allowed; empty or absent refunds all of it."
          },
          "outcome": {
            "type": "string",
            "description": "`refund`: `failed` for a refund the bank declines, anything else (the page sends `refunded`) for one that goes through. `dispute`: `open`, `won` or `lost`. `resolve`: `succeeded` or `failed`.",
            "examples": [
              "refunded",
              "failed",
              "open",
              "won",
              "lost",
              "succeeded"
            ]
          },
          "minutes": {
            "type": "string",
            "description": "`resolve`: resolve the pending payment after this many minutes on the sandbox's clock, a whole number from 1 to 525600; absent resolves it now."
          }
        }
      },
      "DashboardReplayForm": {
        "type": "object",
        "required": [
          "formToken"
        ],
        "properties": {
          "formToken": {
            "type": "string",
            "description": "The token of this run of the sandbox that every form of its pages carries in a hidden field: a form without it, or with another run's, is refused 403 before it is read."
          },
          "resign": {
            "type": "string",
            "description": "`false` sends the delivery again exactly as it was (its signature too); anything else, or absent, signs it anew.",
            "examples": [
              "true",
              "false"
            ]
          }
        }
      },
      "DashboardClockForm": {
        "type": "object",
        "required": [
          "formToken"
        ],
        "properties": {
          "formToken": {
            "type": "string",
            "description": "The token of this run of the sandbox that every form of its pages carries in a hidden field: a form without it, or with another run's, is refused 403 before it is read."
          },
          "advance": {
            "type": "string",
            "description": "How far to move a virtual clock forward, an ISO 8601 duration such as PT15M, spaces around it allowed.",
            "examples": [
              "PT15M",
              "P1D"
            ]
          }
        }
      },
      "ControlOrderState": {
        "type": "string",
        "description": "An order's state, as the reporting API names it.",
        "enum": [
          "created",
          "payment_pending",
          "payment_succeed",
          "charge_pending",
          "charge_succeed",
          "charge_failed",
          "payment_canceled",
          "payment_failed",
          "payment_refund_pending",
          "payment_refunded",
          "payment_refund_failed",
          "payment_dispute_open",
          "payment_dispute_evidence_submitted",
          "payment_dispute_won",
          "payment_dispute_lost"
        ]
      },
      "ControlSession": {
        "type": "object",
        "description": "A checkout session as the control API shows it.",
        "additionalProperties": false,
        "required": [
          "purchaseId",
          "state",
          "offerSku",
          "price",
          "currency",
          "customerId",
          "countryCode2"
        ],
        "properties": {
          "purchaseId": {
            "type": "string",
            "description": "The session's purchase id."
          },
          "state": {
            "$ref": "#/components/schemas/ControlOrderState"
          },
          "offerSku": {
            "type": "string"
          },
          "price": {
            "type": "integer",
            "minimum": 0,
            "description": "The price in minor units, as Create Checkout Session sent it."
          },
          "currency": {
            "type": "string",
            "description": "ISO 4217."
          },
          "customerId": {
            "type": "string"
          },
          "countryCode2": {
            "type": "string"
          },
          "orderId": {
            "type": "string",
            "description": "The order's id, once the session has an order."
          },
          "refundAmount": {
            "type": "integer",
            "minimum": 0,
            "description": "What was refunded, in minor units, once a refund went through."
          },
          "resolution": {
            "type": "object",
            "description": "The pending payment's resolution scheduled on the sandbox's clock.",
            "additionalProperties": false,
            "required": [
              "outcome",
              "at"
            ],
            "properties": {
              "outcome": {
                "type": "string",
                "enum": [
                  "succeeded",
                  "failed"
                ]
              },
              "at": {
                "type": "string",
                "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
                "description": "A time in UTC, ISO 8601 with milliseconds."
              }
            }
          },
          "resolvedLate": {
            "const": true,
            "description": "The pending payment was resolved by a timer the clock fired.",
            "type": "boolean"
          },
          "redirect": {
            "type": "string",
            "description": "Where the checkout sends the browser now that it ended: the session's redirectUrl with its status."
          },
          "warnings": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "minItems": 1,
            "description": "What Create Checkout Session warned of."
          }
        }
      },
      "ControlClock": {
        "type": "object",
        "description": "The sandbox's clock.",
        "additionalProperties": false,
        "required": [
          "mode",
          "now"
        ],
        "properties": {
          "mode": {
            "type": "string",
            "enum": [
              "wall",
              "virtual"
            ],
            "description": "wall moves by itself; virtual only when POST /control/v1/clock moves it."
          },
          "now": {
            "type": "string",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "A time in UTC, ISO 8601 with milliseconds."
          }
        }
      },
      "ControlFired": {
        "type": "object",
        "description": "A timer a move of the clock fired.",
        "additionalProperties": false,
        "required": [
          "at",
          "timer",
          "purchaseId"
        ],
        "properties": {
          "at": {
            "type": "string",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "A time in UTC, ISO 8601 with milliseconds."
          },
          "timer": {
            "type": "string",
            "enum": [
              "expiry",
              "resolution",
              "retry"
            ]
          },
          "purchaseId": {
            "type": "string"
          },
          "outcome": {
            "type": "string",
            "enum": [
              "succeeded",
              "failed"
            ],
            "description": "A resolution's outcome."
          },
          "delivery": {
            "type": "string",
            "pattern": "^dl_[0-9]+$",
            "description": "A retry's delivery."
          },
          "kind": {
            "type": "string",
            "enum": [
              "award",
              "event"
            ]
          },
          "name": {
            "type": "string"
          },
          "attempt": {
            "type": "integer",
            "minimum": 1
          },
          "result": {
            "type": "string",
            "description": "How the retry's attempt ended: accepted, or refused: and why."
          }
        }
      },
      "ControlClockMoved": {
        "type": "object",
        "description": "The clock once a move is done, with every timer it fired, in time order.",
        "additionalProperties": false,
        "required": [
          "mode",
          "now",
          "fired"
        ],
        "properties": {
          "mode": {
            "type": "string",
            "enum": [
              "virtual"
            ]
          },
          "now": {
            "type": "string",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "A time in UTC, ISO 8601 with milliseconds."
          },
          "fired": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ControlFired"
            }
          }
        }
      },
      "ControlClockMove": {
        "description": "Exactly one of advance (an ISO 8601 duration) and to (a time).",
        "oneOf": [
          {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "advance"
            ],
            "properties": {
              "advance": {
                "type": "string",
                "pattern": "^[Pp](?=.*[1-9])(?:[0-9]+[Ww])?(?:[0-9]+[Dd])?(?:[Tt](?=[0-9])(?:[0-9]+[Hh])?(?:[0-9]+[Mm])?(?:[0-9]+(?:\\.[0-9]{1,3})?[Ss])?)?$",
                "description": "An ISO 8601 duration, such as PT15M, PT30S, PT1H or P1D: weeks, days, hours, minutes and seconds (years and months have no fixed length), a fraction only of seconds, to the millisecond; any letter case. Zero is refused: the clock moves only forward."
              }
            }
          },
          {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "to"
            ],
            "properties": {
              "to": {
                "type": "string",
                "description": "A time after the clock's: an ISO 8601 time such as 2026-12-01T11:00:00Z (a date alone is its midnight, UTC), or Unix seconds. The pattern is the form alone; whether the text is a real time in 1970 to 9999, after the clock's, no schema can say.",
                "pattern": "^(?:[0-9]+|[0-9]{4}-[0-9]{2}-[0-9]{2}.*)$"
              }
            }
          }
        ]
      },
      "ControlHealth": {
        "type": "object",
        "description": "The sandbox answers.",
        "additionalProperties": false,
        "required": [
          "status",
          "version",
          "sessions",
          "data",
          "clock"
        ],
        "properties": {
          "status": {
            "type": "string",
            "const": "ok"
          },
          "version": {
            "type": "string"
          },
          "sessions": {
            "type": "integer",
            "minimum": 0,
            "description": "The sessions held."
          },
          "data": {
            "type": "boolean",
            "description": "Whether serve --data keeps them."
          },
          "clock": {
            "$ref": "#/components/schemas/ControlClock"
          }
        }
      },
      "ControlBlockedPlayers": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "blockedPlayers"
        ],
        "properties": {
          "blockedPlayers": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "The blocked players' customer.id, in the order they were blocked."
          }
        }
      },
      "ControlBlock": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id"
        ],
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$",
            "description": "The player's customer.id: not empty, at most 512 bytes, no control characters."
          }
        }
      },
      "ControlReset": {
        "type": "object",
        "description": "The sandbox as at its start: nothing held, and what was forgotten.",
        "additionalProperties": false,
        "required": [
          "reset",
          "sessions",
          "deliveries",
          "forgotten"
        ],
        "properties": {
          "reset": {
            "const": true,
            "type": "boolean"
          },
          "sessions": {
            "const": 0,
            "type": "integer"
          },
          "deliveries": {
            "const": 0,
            "type": "integer"
          },
          "forgotten": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "sessions",
              "deliveries"
            ],
            "properties": {
              "sessions": {
                "type": "integer",
                "minimum": 0
              },
              "deliveries": {
                "type": "integer",
                "minimum": 0
              }
            }
          }
        }
      },
      "ControlEmpty": {
        "type": "object",
        "maxProperties": 0,
        "description": "{}, or no body."
      },
      "ControlComplete": {
        "type": "object",
        "description": "The player's choice, made by a script.",
        "additionalProperties": false,
        "required": [
          "choice"
        ],
        "properties": {
          "choice": {
            "type": "string",
            "enum": [
              "pay",
              "decline",
              "pending",
              "close",
              "cancel"
            ],
            "description": "The player's choice: pay, decline, pending (a payment that resolves later), close or cancel."
          },
          "paymentMethod": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
            "description": "How the player paid, such as Visa."
          },
          "device": {
            "type": "string",
            "description": "The device the V2 events name: a preset such as ios, or KEY=VALUE,... such as osType=iOS,osVersion=18.0."
          },
          "resolve": {
            "type": "object",
            "description": "With choice pending: the pending payment resolves on the clock, after this long.",
            "additionalProperties": false,
            "required": [
              "outcome"
            ],
            "properties": {
              "outcome": {
                "type": "string",
                "enum": [
                  "succeeded",
                  "failed"
                ]
              },
              "after": {
                "type": "string",
                "pattern": "^[Pp](?=.*[1-9])(?:[0-9]+[Ww])?(?:[0-9]+[Dd])?(?:[Tt](?=[0-9])(?:[0-9]+[Hh])?(?:[0-9]+[Mm])?(?:[0-9]+(?:\\.[0-9]{1,3})?[Ss])?)?$",
                "description": "An ISO 8601 duration, such as PT15M, PT30S, PT1H or P1D: weeks, days, hours, minutes and seconds (years and months have no fixed length), a fraction only of seconds, to the millisecond; any letter case. Zero is refused: the clock moves only forward."
              }
            }
          }
        },
        "dependentSchemas": {
          "resolve": {
            "properties": {
              "choice": {
                "const": "pending",
                "type": "string"
              }
            }
          }
        }
      },
      "ControlRefund": {
        "type": "object",
        "description": "A refund of the session's order.",
        "additionalProperties": false,
        "required": [],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "refunded",
              "failed"
            ],
            "description": "refunded (the default) or failed: the refund goes through, or is refused by the payment provider."
          },
          "amount": {
            "type": "integer",
            "minimum": 1,
            "description": "A partial refund, in minor units, from 1 to the order's price; the whole price when left out."
          }
        }
      },
      "ControlDispute": {
        "type": "object",
        "description": "A dispute of the session's order.",
        "additionalProperties": false,
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "open",
              "won",
              "lost"
            ],
            "description": "open a dispute, or open and resolve it, won or lost."
          }
        }
      },
      "ControlResolve": {
        "type": "object",
        "description": "How a pending payment resolves: now, or after this long on the sandbox's clock.",
        "additionalProperties": false,
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "succeeded",
              "failed"
            ]
          },
          "after": {
            "type": "string",
            "pattern": "^[Pp](?=.*[1-9])(?:[0-9]+[Ww])?(?:[0-9]+[Dd])?(?:[Tt](?=[0-9])(?:[0-9]+[Hh])?(?:[0-9]+[Mm])?(?:[0-9]+(?:\\.[0-9]{1,3})?[Ss])?)?$",
            "description": "An ISO 8601 duration, such as PT15M, PT30S, PT1H or P1D: weeks, days, hours, minutes and seconds (years and months have no fixed length), a fraction only of seconds, to the millisecond; any letter case. Zero is refused: the clock moves only forward."
          }
        }
      },
      "DeliveryAttempt": {
        "type": "object",
        "description": "One attempt of a delivery.",
        "additionalProperties": false,
        "required": [
          "number",
          "sentAt",
          "sentAfter",
          "milliseconds",
          "request"
        ],
        "properties": {
          "number": {
            "type": "integer",
            "minimum": 1
          },
          "sentAt": {
            "type": "integer",
            "description": "When it was sent, Unix milliseconds of the sandbox's clock."
          },
          "sentAfter": {
            "type": "integer",
            "minimum": 0,
            "description": "How long after the first attempt, in milliseconds."
          },
          "milliseconds": {
            "type": "integer",
            "minimum": 0,
            "description": "How long the answer took."
          },
          "request": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "headers"
            ],
            "properties": {
              "headers": {
                "type": "array",
                "description": "Headers in the order sent, each [name, value]; the publisher token masked.",
                "items": {
                  "type": "array",
                  "prefixItems": [
                    {
                      "type": "string"
                    },
                    {
                      "type": "string"
                    }
                  ],
                  "minItems": 2,
                  "maxItems": 2
                }
              }
            }
          },
          "response": {
            "type": "object",
            "description": "The answer, when one came.",
            "additionalProperties": false,
            "required": [
              "status",
              "headers",
              "body"
            ],
            "properties": {
              "status": {
                "type": "integer",
                "minimum": 100,
                "maximum": 999
              },
              "headers": {
                "type": "array",
                "description": "Headers in the order sent, each [name, value]; the publisher token masked.",
                "items": {
                  "type": "array",
                  "prefixItems": [
                    {
                      "type": "string"
                    },
                    {
                      "type": "string"
                    }
                  ],
                  "minItems": 2,
                  "maxItems": 2
                }
              },
              "body": {
                "type": "string",
                "description": "The start of the answer's body."
              }
            }
          },
          "error": {
            "type": "string",
            "description": "Why the attempt failed."
          },
          "publisherPurchaseId": {
            "type": "string",
            "description": "The publisherPurchaseId a granted award answered."
          }
        }
      },
      "Delivery": {
        "type": "object",
        "description": "An award or event the sandbox sent the game's server, with every attempt.",
        "additionalProperties": false,
        "required": [
          "id",
          "kind",
          "purchaseId",
          "name",
          "url",
          "succeeded",
          "body",
          "attempts"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^dl_[1-9][0-9]*$"
          },
          "kind": {
            "type": "string",
            "enum": [
              "award",
              "event"
            ]
          },
          "purchaseId": {
            "type": "string"
          },
          "name": {
            "type": "string",
            "description": "award, or the event as its version names it, such as order.refunded."
          },
          "url": {
            "type": "string",
            "description": "Where it went."
          },
          "succeeded": {
            "type": "boolean",
            "description": "Whether its last attempt was granted, or accepted."
          },
          "replayOf": {
            "type": "string",
            "pattern": "^dl_[1-9][0-9]*$",
            "description": "The delivery it sends again."
          },
          "resigned": {
            "type": "boolean",
            "description": "For a replay: whether it was newly signed."
          },
          "nextAttemptAt": {
            "type": "integer",
            "description": "When its next attempt is due, Unix milliseconds, while a virtual clock holds its retry."
          },
          "body": {
            "type": "string",
            "description": "The request's body, as sent."
          },
          "attempts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DeliveryAttempt"
            }
          }
        }
      },
      "DeliveryPage": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "deliveries",
          "nextCursor"
        ],
        "properties": {
          "deliveries": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Delivery"
            },
            "description": "Newest first."
          },
          "nextCursor": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^dl_[0-9]+$",
            "description": "The cursor of the page after; null on the last."
          }
        }
      },
      "DeliveryReplayRequest": {
        "type": "object",
        "description": "{}, {\"resign\": true} or {\"resign\": false}; no body is {}.",
        "additionalProperties": false,
        "required": [],
        "properties": {
          "resign": {
            "type": "boolean",
            "description": "Sign it anew (the default), or send the first's signature again."
          }
        }
      },
      "DeliveryReplaying": {
        "type": "object",
        "description": "The replay is under way: GET /control/v1/deliveries lists it.",
        "additionalProperties": false,
        "required": [
          "replaying",
          "resign"
        ],
        "properties": {
          "replaying": {
            "type": "string",
            "pattern": "^dl_[1-9][0-9]*$"
          },
          "resign": {
            "type": "boolean"
          }
        }
      },
      "ReportError": {
        "type": "object",
        "description": "An error of the reporting API: each problem numbered.",
        "additionalProperties": false,
        "required": [
          "statusCode",
          "error",
          "message",
          "requestUrl"
        ],
        "properties": {
          "statusCode": {
            "type": "integer"
          },
          "error": {
            "type": "string",
            "description": "Bad Request, Unauthorized."
          },
          "message": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "validationErrorNumber",
                "error"
              ],
              "properties": {
                "validationErrorNumber": {
                  "type": "integer",
                  "minimum": 1
                },
                "error": {
                  "type": "string"
                }
              }
            }
          },
          "requestUrl": {
            "type": "string",
            "description": "The request's path."
          }
        }
      },
      "ReportMessage": {
        "type": "object",
        "description": "Appcharge's short error: {\"message\": ...}.",
        "additionalProperties": false,
        "required": [
          "message"
        ],
        "properties": {
          "message": {
            "type": "string"
          }
        }
      },
      "ReportOrdersQuery": {
        "type": "object",
        "description": "Which orders the report lists: those created in the window.",
        "additionalProperties": false,
        "required": [
          "startDate",
          "endDate"
        ],
        "properties": {
          "startDate": {
            "type": "string",
            "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?Z)?$",
            "description": "An ISO 8601 date (its whole day, for endDate) or time in UTC ending in Z: 2024-06-12, 2024-06-12T08:00:00Z. startDate may not be after endDate."
          },
          "endDate": {
            "type": "string",
            "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?Z)?$",
            "description": "An ISO 8601 date (its whole day, for endDate) or time in UTC ending in Z: 2024-06-12, 2024-06-12T08:00:00Z. startDate may not be after endDate."
          },
          "recordLimit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000,
            "description": "At most this many results; 100 by default."
          },
          "offset": {
            "type": "integer",
            "minimum": 0,
            "description": "Results to pass over first."
          },
          "statuses": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ControlOrderState"
            },
            "description": "Only orders in these states."
          },
          "isFree": {
            "type": "boolean",
            "description": "Only free orders, or only paid ones."
          }
        }
      },
      "ReportOrder": {
        "type": "object",
        "description": "An order of the report; money in minor units of its currency, or US cents for the ...InDollar fields.",
        "additionalProperties": false,
        "required": [
          "acOrderId",
          "publisherId",
          "currency",
          "priceInCents",
          "priceInDollar",
          "priceNetInDollar",
          "subTotal",
          "originalPriceInDollar",
          "pricePointMetaData",
          "currencySymbol",
          "acOfferId",
          "publisherOfferId",
          "offerName",
          "createdAt",
          "playerId",
          "state",
          "reason",
          "offerDetails",
          "tax",
          "taxInDollar",
          "currencyExchangeCost",
          "paymentMethod",
          "playerEmail",
          "estimatedPublisherNetAmount",
          "estimatedAppchargeFee",
          "receiptId",
          "discount",
          "promoCodeName"
        ],
        "properties": {
          "acOrderId": {
            "type": [
              "string",
              "null"
            ],
            "description": "null for a checkout closed before paying."
          },
          "publisherId": {
            "type": "string",
            "description": "The project's id, `serve --project-id` (the `x-project-id` the events carry); `paylinks-demo-project` unless told."
          },
          "currency": {
            "type": "string"
          },
          "priceInCents": {
            "type": "integer"
          },
          "priceInDollar": {
            "type": "integer"
          },
          "priceNetInDollar": {
            "type": "integer"
          },
          "subTotal": {
            "type": "integer"
          },
          "originalPriceInDollar": {
            "type": "integer"
          },
          "pricePointMetaData": {
            "type": "integer"
          },
          "currencySymbol": {
            "type": "string"
          },
          "acOfferId": {
            "type": "string"
          },
          "publisherOfferId": {
            "type": "string"
          },
          "offerName": {
            "type": "string"
          },
          "createdAt": {
            "type": "string",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "A time in UTC, ISO 8601 with milliseconds."
          },
          "playerId": {
            "type": "string"
          },
          "state": {
            "$ref": "#/components/schemas/ControlOrderState"
          },
          "reason": {
            "type": "null"
          },
          "offerDetails": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "products"
            ],
            "properties": {
              "products": {
                "type": "array",
                "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": [
                    "name",
                    "publisherProductId",
                    "amount",
                    "price",
                    "currencyCode",
                    "sku"
                  ],
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "publisherProductId": {
                      "type": "string"
                    },
                    "amount": {
                      "type": "integer"
                    },
                    "price": {
                      "type": "integer",
                      "description": "The price of the offer the product came in, as the player paid it: the order's `priceInCents` (tax included, in `currencyCode`'s minor units). Appcharge prices offers, not products, and a session names no product's price, so this is exact for an offer of one product and invents no split for several; it is not to be added up across an order's products."
                    },
                    "currencyCode": {
                      "type": "string"
                    },
                    "sku": {
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "tax": {
            "type": "integer"
          },
          "taxInDollar": {
            "type": "integer"
          },
          "currencyExchangeCost": {
            "type": "integer"
          },
          "paymentMethod": {
            "type": [
              "string",
              "null"
            ]
          },
          "playerEmail": {
            "type": [
              "string",
              "null"
            ]
          },
          "estimatedPublisherNetAmount": {
            "type": "integer"
          },
          "estimatedAppchargeFee": {
            "type": "integer"
          },
          "receiptId": {
            "type": [
              "string",
              "null"
            ]
          },
          "discount": {
            "type": "integer"
          },
          "promoCodeName": {
            "type": "null"
          }
        }
      },
      "ReportOrders": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "totalCount",
          "results"
        ],
        "properties": {
          "totalCount": {
            "type": "integer",
            "minimum": 0
          },
          "results": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReportOrder"
            },
            "description": "Oldest first."
          }
        }
      },
      "ReportTransaction": {
        "type": "object",
        "description": "One money movement of an order.",
        "additionalProperties": false,
        "required": [
          "orderId",
          "purchaseId",
          "publisherTransactionId",
          "timestamp",
          "customerDetails",
          "geolocation",
          "offerDetails",
          "transactionDetails"
        ],
        "properties": {
          "orderId": {
            "type": "string"
          },
          "purchaseId": {
            "type": "string"
          },
          "publisherTransactionId": {
            "type": "string"
          },
          "timestamp": {
            "type": "string",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "A time in UTC, ISO 8601 with milliseconds."
          },
          "customerDetails": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "id"
            ],
            "properties": {
              "id": {
                "type": "string"
              },
              "email": {
                "type": "string"
              }
            }
          },
          "geolocation": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "countryCode2"
            ],
            "properties": {
              "countryCode2": {
                "type": "string"
              }
            }
          },
          "offerDetails": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "offerId",
              "offerName",
              "type",
              "products"
            ],
            "properties": {
              "offerId": {
                "type": "string"
              },
              "offerName": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "const": "bundle"
              },
              "products": {
                "type": "array",
                "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": [
                    "name",
                    "sku",
                    "quantity"
                  ],
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "sku": {
                      "type": "string"
                    },
                    "quantity": {
                      "type": "integer"
                    }
                  }
                }
              }
            }
          },
          "transactionDetails": {
            "type": "object",
            "description": "The money it moved, in minor units and US cents, negative for money given back.",
            "additionalProperties": false,
            "required": [
              "id",
              "type",
              "amount",
              "amountUsd",
              "totalTaxAmount",
              "totalTaxAmountUsd",
              "currencyExchangeCostUsd",
              "chargebackFeeUsd",
              "transactionFeeUsd",
              "publisherNetAmountUsd",
              "currencyCode",
              "currencySymbol",
              "paymentMethod"
            ],
            "properties": {
              "id": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "enum": [
                  "paid",
                  "refund",
                  "dispute_funds_withdrawn",
                  "dispute_funds_reinstated"
                ]
              },
              "amount": {
                "type": "integer"
              },
              "amountUsd": {
                "type": "integer"
              },
              "totalTaxAmount": {
                "type": "integer"
              },
              "totalTaxAmountUsd": {
                "type": "integer"
              },
              "currencyExchangeCostUsd": {
                "type": "integer"
              },
              "chargebackFeeUsd": {
                "type": "integer"
              },
              "transactionFeeUsd": {
                "type": "integer"
              },
              "publisherNetAmountUsd": {
                "type": "integer"
              },
              "currencyCode": {
                "type": "string"
              },
              "currencySymbol": {
                "type": "string"
              },
              "paymentMethod": {
                "type": "string"
              }
            }
          }
        }
      },
      "ReportTransactions": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "totalCount",
          "nextCursor",
          "nextPageQuery",
          "results"
        ],
        "properties": {
          "totalCount": {
            "type": "integer",
            "minimum": 0
          },
          "nextCursor": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^c_[0-9]+$"
          },
          "nextPageQuery": {
            "type": [
              "string",
              "null"
            ],
            "description": "The query string of the page after."
          },
          "results": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReportTransaction"
            }
          }
        }
      },
      "PricePointMessage": {
        "type": "object",
        "description": "The Price Localization API's answer to what it refuses, in Appcharge's words.",
        "additionalProperties": false,
        "required": [
          "message"
        ],
        "properties": {
          "message": {
            "type": "string"
          }
        }
      },
      "PricePointLookupRequest": {
        "type": "object",
        "required": [
          "pricesInUsdCents",
          "countryCode2"
        ],
        "description": "The price points to look up, in US cents, and the country. Other members are not read.",
        "properties": {
          "pricesInUsdCents": {
            "type": "array",
            "maxItems": 50,
            "items": {
              "type": "integer",
              "minimum": 1
            }
          },
          "countryCode2": {
            "type": "string",
            "description": "An officially assigned ISO 3166-1 alpha-2 code, upper case; any other is answered 400 as not supported. A country without a localization is answered in US dollars.",
            "enum": [
              "AD",
              "AE",
              "AF",
              "AG",
              "AI",
              "AL",
              "AM",
              "AO",
              "AQ",
              "AR",
              "AS",
              "AT",
              "AU",
              "AW",
              "AX",
              "AZ",
              "BA",
              "BB",
              "BD",
              "BE",
              "BF",
              "BG",
              "BH",
              "BI",
              "BJ",
              "BL",
              "BM",
              "BN",
              "BO",
              "BQ",
              "BR",
              "BS",
              "BT",
              "BV",
              "BW",
              "BY",
              "BZ",
              "CA",
              "CC",
              "CD",
              "CF",
              "CG",
              "CH",
              "CI",
              "CK",
              "CL",
              "CM",
              "CN",
              "CO",
              "CR",
              "CU",
              "CV",
              "CW",
              "CX",
              "CY",
              "CZ",
              "DE",
              "DJ",
              "DK",
              "DM",
              "DO",
              "DZ",
              "EC",
              "EE",
              "EG",
              "EH",
              "ER",
              "ES",
              "ET",
              "FI",
              "FJ",
              "FK",
              "FM",
              "FO",
              "FR",
              "GA",
              "GB",
              "GD",
              "GE",
              "GF",
              "GG",
              "GH",
              "GI",
              "GL",
              "GM",
              "GN",
              "GP",
              "GQ",
              "GR",
              "GS",
              "GT",
              "GU",
              "GW",
              "GY",
              "HK",
              "HM",
              "HN",
              "HR",
              "HT",
              "HU",
              "ID",
              "IE",
              "IL",
              "IM",
              "IN",
              "IO",
              "IQ",
              "IR",
              "IS",
              "IT",
              "JE",
              "JM",
              "JO",
              "JP",
              "KE",
              "KG",
              "KH",
              "KI",
              "KM",
              "KN",
              "KP",
              "KR",
              "KW",
              "KY",
              "KZ",
              "LA",
              "LB",
              "LC",
              "LI",
              "LK",
              "LR",
              "LS",
              "LT",
              "LU",
              "LV",
              "LY",
              "MA",
              "MC",
              "MD",
              "ME",
              "MF",
              "MG",
              "MH",
              "MK",
              "ML",
              "MM",
              "MN",
              "MO",
              "MP",
              "MQ",
              "MR",
              "MS",
              "MT",
              "MU",
              "MV",
              "MW",
              "MX",
              "MY",
              "MZ",
              "NA",
              "NC",
              "NE",
              "NF",
              "NG",
              "NI",
              "NL",
              "NO",
              "NP",
              "NR",
              "NU",
              "NZ",
              "OM",
              "PA",
              "PE",
              "PF",
              "PG",
              "PH",
              "PK",
              "PL",
              "PM",
              "PN",
              "PR",
              "PS",
              "PT",
              "PW",
              "PY",
              "QA",
              "RE",
              "RO",
              "RS",
              "RU",
              "RW",
              "SA",
              "SB",
              "SC",
              "SD",
              "SE",
              "SG",
              "SH",
              "SI",
              "SJ",
              "SK",
              "SL",
              "SM",
              "SN",
              "SO",
              "SR",
              "SS",
              "ST",
              "SV",
              "SX",
              "SY",
              "SZ",
              "TC",
              "TD",
              "TF",
              "TG",
              "TH",
              "TJ",
              "TK",
              "TL",
              "TM",
              "TN",
              "TO",
              "TR",
              "TT",
              "TV",
              "TW",
              "TZ",
              "UA",
              "UG",
              "UM",
              "US",
              "UY",
              "UZ",
              "VA",
              "VC",
              "VE",
              "VG",
              "VI",
              "VN",
              "VU",
              "WF",
              "WS",
              "YE",
              "YT",
              "ZA",
              "ZM",
              "ZW"
            ]
          }
        }
      },
      "PricePointLookup": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "currencyCode",
          "pricePoints"
        ],
        "properties": {
          "currencyCode": {
            "type": "string",
            "description": "The local currency; empty when no point asked for has a local price."
          },
          "pricePoints": {
            "type": "object",
            "description": "Each point asked for, by its cents as text: its local price, or null.",
            "propertyNames": {
              "pattern": "^[1-9][0-9]*$"
            },
            "additionalProperties": {
              "oneOf": [
                {
                  "type": "null"
                },
                {
                  "type": "object",
                  "additionalProperties": false,
                  "required": [
                    "price",
                    "displayPrice"
                  ],
                  "properties": {
                    "price": {
                      "type": "integer",
                      "minimum": 0,
                      "description": "In the currency's minor units."
                    },
                    "displayPrice": {
                      "type": "string"
                    }
                  }
                }
              ]
            }
          }
        }
      },
      "PricePointSummary": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "priceInUsdCents",
          "lastUpdate"
        ],
        "properties": {
          "priceInUsdCents": {
            "type": "integer",
            "minimum": 1
          },
          "lastUpdate": {
            "type": "string",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "A time in UTC, ISO 8601 with milliseconds."
          }
        }
      },
      "PricePointList": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "pricePoints"
        ],
        "properties": {
          "pricePoints": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PricePointSummary"
            },
            "description": "Cheapest first."
          }
        }
      },
      "PricePointRow": {
        "type": "object",
        "description": "A price point's price in one country.",
        "additionalProperties": false,
        "required": [
          "price",
          "currencyCode",
          "isOverridden",
          "taxModel",
          "taxRate",
          "country",
          "countryCode2",
          "exchangeRateDrift"
        ],
        "properties": {
          "price": {
            "type": "number",
            "description": "In the currency's major units."
          },
          "currencyCode": {
            "type": "string"
          },
          "isOverridden": {
            "type": "boolean"
          },
          "taxModel": {
            "type": "string",
            "enum": [
              "Included",
              "Excluded"
            ]
          },
          "taxRate": {
            "type": "number"
          },
          "country": {
            "type": "string"
          },
          "countryCode2": {
            "type": "string",
            "pattern": "^[A-Z]{2}$"
          },
          "usdExchangeRateOnCalc": {
            "type": "number"
          },
          "exchangeRateDrift": {
            "type": "string",
            "const": "0%"
          }
        }
      },
      "PricePoint": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "priceInUsdCents",
          "lastUpdate",
          "priceByCountry"
        ],
        "properties": {
          "priceInUsdCents": {
            "type": "integer",
            "minimum": 1
          },
          "lastUpdate": {
            "type": "string",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "A time in UTC, ISO 8601 with milliseconds."
          },
          "priceByCountry": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PricePointRow"
            }
          }
        }
      },
      "PricePointOverride": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "countryCode2",
          "price"
        ],
        "properties": {
          "countryCode2": {
            "type": "string",
            "pattern": "^[A-Z]{2}$",
            "description": "A country the point has a row for (one of the catalog's localizations): JSON Schema cannot say which, since `serve --fixtures` may change them; any other is answered 400."
          },
          "price": {
            "type": "number",
            "not": {
              "const": 0,
              "type": "integer"
            },
            "description": "In the currency's major units, exactly chargeable: no more decimals than the currency's minor unit has, which depends on the country, so JSON Schema cannot say it."
          }
        }
      },
      "PricePointCreate": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "priceInUsdCents"
        ],
        "properties": {
          "priceInUsdCents": {
            "type": "integer",
            "minimum": 80,
            "maximum": 500000,
            "description": "US cents, from 80 to 500000."
          },
          "priceOverrides": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PricePointOverride"
            },
            "description": "Each country once, a country the point has a row for."
          }
        }
      },
      "PricePointUpdate": {
        "type": "object",
        "description": "A new base (every local price recomputed from it), and the overrides (else the point's own). The path's cents must be a point the sandbox has (404 otherwise), and a new base must not be another point's (409): state that no schema can say.",
        "additionalProperties": false,
        "required": [],
        "properties": {
          "updatedPriceInUsdCents": {
            "type": "integer",
            "minimum": 80,
            "maximum": 500000,
            "description": "US cents, from 80 to 500000."
          },
          "priceOverrides": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PricePointOverride"
            },
            "description": "Each country once, a country the point has a row for."
          }
        }
      },
      "AwardProduct": {
        "type": "object",
        "description": "One item of the offer.",
        "properties": {
          "amount": {
            "type": "integer",
            "description": "The item's quantity, an integer here (the SDK's order carries it as a string)."
          },
          "sku": {
            "type": "string"
          },
          "name": {
            "type": "string"
          }
        },
        "required": [
          "amount",
          "sku",
          "name"
        ],
        "additionalProperties": false
      },
      "AwardGrant": {
        "type": "object",
        "description": "The Grant Award Callback's body, compact JSON, its members in this order. `paymentMethod` is left out of a free order's award (`action` `bonus`, every money field 0); `playerEmail` and `sessionMetadata` are there when the game's server sent them with the session. The schema is closed because it says exactly what the sandbox sends; an award endpoint should ignore members it does not know, since Appcharge may add some.",
        "properties": {
          "orderId": {
            "type": "string",
            "pattern": "^[0-9]+$",
            "description": "The order's id, the one the client's `onPurchaseSuccess` carries."
          },
          "purchaseId": {
            "type": "string",
            "pattern": "^pr_[0-9a-z]+$",
            "description": "The session's `purchaseId`."
          },
          "appChargePaymentId": {
            "type": "string",
            "pattern": "^pay_[1-9][0-9]{9}$",
            "description": "Appcharge's payment id: `pay_` and ten digits."
          },
          "purchaseDateAndTimeUtc": {
            "type": "string",
            "format": "date-time",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$",
            "description": "When the order was paid, ISO 8601 with milliseconds and `Z`."
          },
          "playerId": {
            "type": "string",
            "description": "The session's `customer.id`."
          },
          "bundleName": {
            "type": "string",
            "description": "The session's `offer.name`."
          },
          "bundleId": {
            "type": "string",
            "pattern": "^[0-9a-f]{24}$",
            "description": "An id of the offer, 24 hex digits."
          },
          "sku": {
            "type": "string",
            "description": "The session's `offer.sku`."
          },
          "products": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/AwardProduct"
            }
          },
          "priceInCents": {
            "type": "integer",
            "description": "What the player paid, tax included, in the currency's minor units."
          },
          "subTotal": {
            "type": "integer",
            "description": "The price before tax, in minor units."
          },
          "tax": {
            "type": "integer",
            "description": "The tax, in minor units."
          },
          "taxRate": {
            "type": "number",
            "minimum": 0,
            "description": "The tax rate in percent, such as 8.875."
          },
          "priceInDollar": {
            "type": "integer",
            "description": "The price before tax, in US cents."
          },
          "taxInDollar": {
            "type": "integer",
            "description": "The tax, in US cents."
          },
          "originalPriceInDollar": {
            "type": "integer",
            "description": "The price point, in US cents."
          },
          "paymentPriceInDollar": {
            "type": "integer",
            "description": "The price point, in US cents."
          },
          "priceTotalInDollar": {
            "type": "integer",
            "description": "What the player paid, tax included, in US cents."
          },
          "pricePointMetadata": {
            "type": "integer",
            "description": "The price point, in US cents."
          },
          "currency": {
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "ISO 4217 code."
          },
          "currencyExchangeCost": {
            "type": "integer",
            "description": "The cost of converting the payment to US dollars, in US cents; 0 for an order paid in dollars."
          },
          "estimatedAppchargeFee": {
            "type": "number",
            "description": "Appcharge's fee, in US cents (a number: Appcharge's own example carries half cents)."
          },
          "estimatedPublisherNetAmount": {
            "type": "number",
            "description": "What the studio keeps, in US cents."
          },
          "action": {
            "type": "string",
            "enum": [
              "purchase",
              "bonus"
            ],
            "description": "`bonus` for a free order (priced 0)."
          },
          "actionStatus": {
            "type": "string",
            "const": "completed"
          },
          "paymentMethod": {
            "type": "string",
            "const": "card",
            "description": "Left out of a free order's award."
          },
          "countryCode2": {
            "type": "string",
            "pattern": "^[A-Z]{2}$",
            "description": "ISO 3166-1 alpha-2 code."
          },
          "playerEmail": {
            "type": "string",
            "description": "The session's `customer.email`, when the game's server sent one."
          },
          "sessionMetadata": {
            "type": "object",
            "description": "The session's `sessionMetadata`, as the game's server sent it with Create Checkout Session, echoed back (compact)."
          },
          "receiptId": {
            "type": "string",
            "pattern": "^rcpt_[0-9a-f]{16}$"
          },
          "awardFlow": {
            "type": "string",
            "enum": [
              "auto",
              "manual_retry"
            ],
            "description": "`manual_retry` when the award is resent by Retry Award (the control API's `retry-award`, or the dashboard)."
          }
        },
        "additionalProperties": false,
        "if": {
          "properties": {
            "action": {
              "const": "bonus",
              "type": "string"
            }
          }
        },
        "then": {
          "not": {
            "required": [
              "paymentMethod"
            ]
          }
        },
        "else": {
          "required": [
            "paymentMethod"
          ]
        },
        "required": [
          "orderId",
          "purchaseId",
          "appChargePaymentId",
          "purchaseDateAndTimeUtc",
          "playerId",
          "bundleName",
          "bundleId",
          "sku",
          "products",
          "priceInCents",
          "subTotal",
          "tax",
          "taxRate",
          "priceInDollar",
          "taxInDollar",
          "originalPriceInDollar",
          "paymentPriceInDollar",
          "priceTotalInDollar",
          "pricePointMetadata",
          "currency",
          "currencyExchangeCost",
          "estimatedAppchargeFee",
          "estimatedPublisherNetAmount",
          "action",
          "actionStatus",
          "countryCode2",
          "receiptId",
          "awardFlow"
        ]
      },
      "AwardGranted": {
        "type": "object",
        "description": "A grant: the game's server's own id for it, a non-empty string. Other members are allowed (reference servers add `purchaseTime`). Every resend of the same `orderId` must be answered with the same id.",
        "properties": {
          "publisherPurchaseId": {
            "type": "string",
            "minLength": 1
          }
        },
        "required": [
          "publisherPurchaseId"
        ]
      },
      "AwardRefused": {
        "type": "object",
        "description": "Why the game's server refused the award; the sandbox shows it with the failure.",
        "properties": {
          "publisherErrorMessage": {
            "type": "string"
          }
        },
        "required": [
          "publisherErrorMessage"
        ]
      },
      "EventV1Product": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string"
          },
          "sku": {
            "type": "string"
          },
          "amount": {
            "type": "integer",
            "description": "The item's quantity."
          }
        },
        "required": [
          "name",
          "sku",
          "amount"
        ],
        "additionalProperties": false
      },
      "EventV1Offer": {
        "type": "object",
        "properties": {
          "offerName": {
            "type": "string"
          },
          "offerExternalId": {
            "type": "string",
            "description": "The session's `offer.sku`."
          },
          "originalPriceInDollar": {
            "type": "number",
            "description": "The price point, in US dollars."
          },
          "country": {
            "type": "string",
            "pattern": "^[A-Z]{2}$",
            "description": "ISO 3166-1 alpha-2 code."
          },
          "currency": {
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "ISO 4217 code."
          },
          "priceInDollar": {
            "type": "number",
            "description": "The price before tax, in US dollars."
          },
          "priceInCents": {
            "type": "integer",
            "description": "What the player paid, tax included, in the currency's minor units."
          },
          "subtotal": {
            "type": "integer",
            "description": "The price before tax, in minor units."
          },
          "tax": {
            "type": "integer",
            "description": "The tax, in minor units."
          },
          "products": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/EventV1Product"
            }
          }
        },
        "required": [
          "offerName",
          "offerExternalId",
          "originalPriceInDollar",
          "country",
          "currency",
          "priceInDollar",
          "priceInCents",
          "subtotal",
          "tax",
          "products"
        ],
        "additionalProperties": false
      },
      "EventV1Body": {
        "type": "object",
        "description": "The V1 payload, flat, compact JSON in this order; the same members for every event.",
        "properties": {
          "event": {
            "type": "string",
            "enum": [
              "order_created",
              "payment_intent_success",
              "payment_intent_failed",
              "order_completed_success",
              "order_cancelled",
              "order_refunded",
              "order_dispute_open",
              "order_dispute_won",
              "order_dispute_lost"
            ]
          },
          "timestamp": {
            "type": "integer",
            "description": "When it happened, in Unix **seconds**."
          },
          "appChargePaymentId": {
            "type": "string",
            "pattern": "^pay_[1-9][0-9]{9}$",
            "description": "Appcharge's payment id: `pay_` and ten digits."
          },
          "appChargeOrderId": {
            "type": "string",
            "pattern": "^[0-9]+$",
            "description": "The award's `orderId`: what joins the event to its grant."
          },
          "playerId": {
            "type": "string"
          },
          "sessionMetadata": {
            "type": "object",
            "description": "The session's `sessionMetadata`, as the game's server sent it with Create Checkout Session, echoed back (compact)."
          },
          "paymentMethod": {
            "type": "string",
            "description": "How the player paid (the order's `paymentMethodName`); left out of a free order's events."
          },
          "pricePointMetadata": {
            "type": "integer",
            "description": "The price point, in US cents."
          },
          "estimatedPublisherNetAmount": {
            "type": "number",
            "description": "What the studio keeps, in US dollars."
          },
          "estimatedAppchargeFee": {
            "type": "number",
            "description": "Appcharge's fee, in US dollars."
          },
          "isSavedPaymentMethodUsed": {
            "type": "boolean",
            "const": false
          },
          "isNewPaymentMethodSaved": {
            "type": "boolean",
            "const": false
          },
          "offer": {
            "$ref": "#/components/schemas/EventV1Offer"
          }
        },
        "required": [
          "event",
          "timestamp",
          "appChargePaymentId",
          "appChargeOrderId",
          "playerId",
          "pricePointMetadata",
          "estimatedPublisherNetAmount",
          "estimatedAppchargeFee",
          "isSavedPaymentMethodUsed",
          "isNewPaymentMethodSaved",
          "offer"
        ],
        "additionalProperties": false
      },
      "EventV1OrderCreated": {
        "description": "`order_created`: An order was created.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "order_created",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1PaymentIntentSuccess": {
        "description": "`payment_intent_success`: The payment succeeded.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "payment_intent_success",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1PaymentIntentFailed": {
        "description": "`payment_intent_failed`: The payment failed.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "payment_intent_failed",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1OrderCompletedSuccess": {
        "description": "`order_completed_success`: The order was completed: its award granted.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "order_completed_success",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1OrderCancelled": {
        "description": "`order_cancelled`: The checkout was canceled.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "order_cancelled",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1OrderRefunded": {
        "description": "`order_refunded`: The order was refunded, in whole or in part.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "order_refunded",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1OrderDisputeOpen": {
        "description": "`order_dispute_open`: The player disputed the payment.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "order_dispute_open",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1OrderDisputeWon": {
        "description": "`order_dispute_won`: The dispute was resolved in the studio's favour.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "order_dispute_won",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1OrderDisputeLost": {
        "description": "`order_dispute_lost`: The dispute was lost: a chargeback.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV1Body"
          },
          {
            "properties": {
              "event": {
                "const": "order_dispute_lost",
                "type": "string"
              }
            }
          }
        ]
      },
      "EventV1": {
        "description": "An event V1, told by `event`.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/EventV1OrderCreated"
          },
          {
            "$ref": "#/components/schemas/EventV1PaymentIntentSuccess"
          },
          {
            "$ref": "#/components/schemas/EventV1PaymentIntentFailed"
          },
          {
            "$ref": "#/components/schemas/EventV1OrderCompletedSuccess"
          },
          {
            "$ref": "#/components/schemas/EventV1OrderCancelled"
          },
          {
            "$ref": "#/components/schemas/EventV1OrderRefunded"
          },
          {
            "$ref": "#/components/schemas/EventV1OrderDisputeOpen"
          },
          {
            "$ref": "#/components/schemas/EventV1OrderDisputeWon"
          },
          {
            "$ref": "#/components/schemas/EventV1OrderDisputeLost"
          }
        ],
        "discriminator": {
          "propertyName": "event",
          "mapping": {
            "order_created": "#/components/schemas/EventV1OrderCreated",
            "payment_intent_success": "#/components/schemas/EventV1PaymentIntentSuccess",
            "payment_intent_failed": "#/components/schemas/EventV1PaymentIntentFailed",
            "order_completed_success": "#/components/schemas/EventV1OrderCompletedSuccess",
            "order_cancelled": "#/components/schemas/EventV1OrderCancelled",
            "order_refunded": "#/components/schemas/EventV1OrderRefunded",
            "order_dispute_open": "#/components/schemas/EventV1OrderDisputeOpen",
            "order_dispute_won": "#/components/schemas/EventV1OrderDisputeWon",
            "order_dispute_lost": "#/components/schemas/EventV1OrderDisputeLost"
          }
        }
      },
      "EventV2Customer": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "description": "The session's `customer.id`."
          },
          "email": {
            "type": "string"
          }
        },
        "required": [
          "id"
        ],
        "additionalProperties": false
      },
      "EventV2Product": {
        "type": "object",
        "properties": {
          "displayName": {
            "type": "string"
          },
          "productExternalId": {
            "type": "string"
          },
          "productQuantity": {
            "type": "string",
            "pattern": "^[0-9]+$",
            "description": "The item's quantity, a string here."
          }
        },
        "required": [
          "displayName",
          "productExternalId",
          "productQuantity"
        ],
        "additionalProperties": false
      },
      "EventV2Offer": {
        "type": "object",
        "properties": {
          "externalId": {
            "type": "string",
            "description": "The session's `offer.sku`."
          },
          "name": {
            "type": "string"
          },
          "products": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/EventV2Product"
            }
          }
        },
        "required": [
          "externalId",
          "name",
          "products"
        ],
        "additionalProperties": false
      },
      "EventV2Order": {
        "type": "object",
        "properties": {
          "subtotal": {
            "type": "integer",
            "description": "The price before tax, in minor units."
          },
          "discountAmount": {
            "type": "integer",
            "const": 0
          },
          "totalPayment": {
            "type": "integer",
            "description": "What the player paid, tax included, in minor units."
          },
          "taxAmount": {
            "type": "integer",
            "description": "The tax, in minor units."
          },
          "currencyCode": {
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "ISO 4217 code."
          },
          "paymentMethod": {
            "type": "string",
            "description": "How the player paid; left out of a free order."
          },
          "pricePointMetadata": {
            "type": "integer",
            "description": "The price point, in US cents."
          },
          "isSavedPaymentMethodUsed": {
            "type": "boolean",
            "const": false
          },
          "isNewPaymentMethodSaved": {
            "type": "boolean",
            "const": false
          }
        },
        "required": [
          "subtotal",
          "discountAmount",
          "totalPayment",
          "taxAmount",
          "currencyCode",
          "pricePointMetadata",
          "isSavedPaymentMethodUsed",
          "isNewPaymentMethodSaved"
        ],
        "additionalProperties": false
      },
      "EventV2Geolocation": {
        "type": "object",
        "properties": {
          "countryCode2": {
            "type": "string",
            "pattern": "^[A-Z]{2}$",
            "description": "ISO 3166-1 alpha-2 code."
          }
        },
        "required": [
          "countryCode2"
        ],
        "additionalProperties": false
      },
      "EventV2Device": {
        "type": "object",
        "description": "The player's device, its known fields only.",
        "properties": {
          "platform": {
            "type": "string"
          },
          "deviceModel": {
            "type": "string"
          },
          "osType": {
            "type": "string"
          },
          "osVersion": {
            "type": "string"
          },
          "browserType": {
            "type": "string"
          },
          "browserVersion": {
            "type": "string"
          }
        },
        "required": [],
        "additionalProperties": false
      },
      "EventV2Transaction": {
        "type": "object",
        "description": "One movement of the order's money.",
        "properties": {
          "purchaseId": {
            "type": "string",
            "pattern": "^pr_[0-9a-z]+$",
            "description": "The award's `purchaseId`: what joins the event to its grant (V2 events carry no `orderId`)."
          },
          "type": {
            "type": "string",
            "enum": [
              "paid",
              "refund",
              "dispute_funds_withdrawn",
              "dispute_funds_reinstated"
            ]
          },
          "timestamp": {
            "type": "integer",
            "description": "When the money moved, in Unix milliseconds."
          },
          "amount": {
            "type": "string",
            "pattern": "^-?[0-9]+(\\.[0-9]+)?$",
            "description": "The money moved, in the order's currency, a decimal string with its minor digits; negative for money given back."
          },
          "amountUSD": {
            "type": "string",
            "pattern": "^-?[0-9]+\\.[0-9]{2}$",
            "description": "US dollars, a decimal string with two digits after the point."
          },
          "totalTaxAmount": {
            "type": "string",
            "pattern": "^-?[0-9]+(\\.[0-9]+)?$",
            "description": "The tax moved, in the order's currency."
          },
          "totalTaxAmountUsd": {
            "type": "string",
            "pattern": "^-?[0-9]+\\.[0-9]{2}$",
            "description": "US dollars, a decimal string with two digits after the point."
          },
          "currencyExchangeCostUsd": {
            "type": "string",
            "pattern": "^-?[0-9]+\\.[0-9]{2}$",
            "description": "US dollars, a decimal string with two digits after the point."
          },
          "chargeBackFeeUsd": {
            "type": "string",
            "pattern": "^-?[0-9]+\\.[0-9]{2}$",
            "description": "US dollars, a decimal string with two digits after the point."
          },
          "receiptNumber": {
            "type": "string",
            "pattern": "^rcpt_[0-9a-f]{16}$"
          }
        },
        "required": [
          "purchaseId",
          "type",
          "timestamp",
          "amount",
          "amountUSD",
          "totalTaxAmount",
          "totalTaxAmountUsd",
          "currencyExchangeCostUsd",
          "chargeBackFeeUsd",
          "receiptNumber"
        ],
        "additionalProperties": false
      },
      "EventV2Body": {
        "type": "object",
        "description": "The V2 envelope, compact JSON in this order. V2 events carry no `orderId`: `transactions[].purchaseId` joins one to its grant.",
        "properties": {
          "eventName": {
            "type": "string",
            "enum": [
              "order.created",
              "order.payment.resolved",
              "order.completed",
              "order.canceled",
              "order.refunded",
              "order.dispute.opened",
              "order.dispute.resolved"
            ]
          },
          "eventId": {
            "type": "string",
            "format": "uuid",
            "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
            "description": "The same on every retry of one event: receivers deduplicate on it."
          },
          "timestamp": {
            "type": "integer",
            "description": "When it happened, in Unix **milliseconds**."
          },
          "sessionId": {
            "type": "string",
            "description": "The session's `checkoutSessionToken`."
          },
          "result": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "success",
              "failed",
              "won",
              "lost",
              null
            ]
          },
          "customer": {
            "$ref": "#/components/schemas/EventV2Customer"
          },
          "offer": {
            "$ref": "#/components/schemas/EventV2Offer"
          },
          "order": {
            "$ref": "#/components/schemas/EventV2Order"
          },
          "geolocation": {
            "$ref": "#/components/schemas/EventV2Geolocation"
          },
          "device": {
            "$ref": "#/components/schemas/EventV2Device"
          },
          "transactions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/EventV2Transaction"
            },
            "description": "The order's money movements so far, oldest first."
          },
          "sessionMetadata": {
            "type": "object",
            "description": "The session's `sessionMetadata`, as the game's server sent it with Create Checkout Session, echoed back (compact)."
          }
        },
        "required": [
          "eventName",
          "eventId",
          "timestamp",
          "sessionId",
          "result",
          "customer",
          "offer",
          "order",
          "geolocation",
          "transactions"
        ],
        "additionalProperties": false
      },
      "EventV2OrderCreated": {
        "description": "`order.created`: An order was created.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV2Body"
          },
          {
            "properties": {
              "eventName": {
                "const": "order.created",
                "type": "string"
              },
              "result": {
                "type": "null"
              }
            }
          }
        ]
      },
      "EventV2OrderPaymentResolved": {
        "description": "`order.payment.resolved`: The payment was resolved: `result` says how.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV2Body"
          },
          {
            "properties": {
              "eventName": {
                "const": "order.payment.resolved",
                "type": "string"
              },
              "result": {
                "type": "string",
                "enum": [
                  "success",
                  "failed"
                ]
              }
            }
          }
        ]
      },
      "EventV2OrderCompleted": {
        "description": "`order.completed`: The order was completed: its award granted.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV2Body"
          },
          {
            "properties": {
              "eventName": {
                "const": "order.completed",
                "type": "string"
              },
              "result": {
                "type": "null"
              }
            }
          }
        ]
      },
      "EventV2OrderCanceled": {
        "description": "`order.canceled`: The checkout was canceled.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV2Body"
          },
          {
            "properties": {
              "eventName": {
                "const": "order.canceled",
                "type": "string"
              },
              "result": {
                "type": "null"
              }
            }
          }
        ]
      },
      "EventV2OrderRefunded": {
        "description": "`order.refunded`: The order was refunded, in whole or in part (see `transactions`).",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV2Body"
          },
          {
            "properties": {
              "eventName": {
                "const": "order.refunded",
                "type": "string"
              },
              "result": {
                "type": "null"
              }
            }
          }
        ]
      },
      "EventV2OrderDisputeOpened": {
        "description": "`order.dispute.opened`: The player disputed the payment.",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV2Body"
          },
          {
            "properties": {
              "eventName": {
                "const": "order.dispute.opened",
                "type": "string"
              },
              "result": {
                "type": "null"
              }
            }
          }
        ]
      },
      "EventV2OrderDisputeResolved": {
        "description": "`order.dispute.resolved`: The dispute was resolved: `won` or `lost` (a chargeback).",
        "allOf": [
          {
            "$ref": "#/components/schemas/EventV2Body"
          },
          {
            "properties": {
              "eventName": {
                "const": "order.dispute.resolved",
                "type": "string"
              },
              "result": {
                "type": "string",
                "enum": [
                  "won",
                  "lost"
                ]
              }
            }
          }
        ]
      },
      "EventV2": {
        "description": "An event V2, told by `eventName` (and, for a resolution, `result`).",
        "oneOf": [
          {
            "$ref": "#/components/schemas/EventV2OrderCreated"
          },
          {
            "$ref": "#/components/schemas/EventV2OrderPaymentResolved"
          },
          {
            "$ref": "#/components/schemas/EventV2OrderCompleted"
          },
          {
            "$ref": "#/components/schemas/EventV2OrderCanceled"
          },
          {
            "$ref": "#/components/schemas/EventV2OrderRefunded"
          },
          {
            "$ref": "#/components/schemas/EventV2OrderDisputeOpened"
          },
          {
            "$ref": "#/components/schemas/EventV2OrderDisputeResolved"
          }
        ],
        "discriminator": {
          "propertyName": "eventName",
          "mapping": {
            "order.created": "#/components/schemas/EventV2OrderCreated",
            "order.payment.resolved": "#/components/schemas/EventV2OrderPaymentResolved",
            "order.completed": "#/components/schemas/EventV2OrderCompleted",
            "order.canceled": "#/components/schemas/EventV2OrderCanceled",
            "order.refunded": "#/components/schemas/EventV2OrderRefunded",
            "order.dispute.opened": "#/components/schemas/EventV2OrderDisputeOpened",
            "order.dispute.resolved": "#/components/schemas/EventV2OrderDisputeResolved"
          }
        }
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
      },
      "UnsupportedVersion": {
        "description": "The request is not HTTP/1.1 (or 1.0): the sandbox speaks HTTP/1.1.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "TooSlow": {
        "description": "The request took longer than the read time, 10 s, to arrive whole.",
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
