"""The script a team would write by hand instead of paylinks: print the callbacks of a
purchase of starter_pack_001 as JSON lines, or COUNT purchases after one onInitialized.

Usage: python3 reference.py [COUNT]
"""
import json
import random
import sys
import time

ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rng = random.Random(1)
    now = int(time.time())
    out = sys.stdout
    out.write(json.dumps({"callback": "onInitialized"}, separators=(",", ":")) + "\n")
    for _ in range(count):
        order = {
            "date": now,
            "sessionToken": "".join(rng.choices(ALPHANUMERIC, k=32)),
            "offerName": "Starter Pack",
            "offerSku": "starter_pack_001",
            "items": [{"name": "Gems", "sku": "gem_01", "quantity": "100"}],
            "price": 499,
            "currency": "USD",
            "customerId": "cust_98765",
            "customerCountry": "US",
            "paymentMethodName": "Visa",
            "orderId": str(rng.randrange(1_000_000_000, 10_000_000_000)),
            "purchaseId": "pr_" + "".join(rng.choices(LOWER, k=24)),
        }
        out.write(json.dumps({"callback": "onPurchaseSuccess", "order": order}, separators=(",", ":"), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
