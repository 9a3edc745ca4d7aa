"""Reads a YAML file with PyYAML and prints it as JSON, so that a test can check a
workflow's structure: python3 yaml_to_json.py FILE.yml"""

import json
import sys

import yaml

with open(sys.argv[1], encoding="utf-8") as stream:
    print(json.dumps(yaml.safe_load(stream)))
