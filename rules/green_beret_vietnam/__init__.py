"""Green Beret: Vietnam (solitaire): rules engine. Digest: ../shared/rules/green-beret-vietnam.md."""
