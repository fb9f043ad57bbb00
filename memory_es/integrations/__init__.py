"""Adapters that put memory-es behind other frameworks' memory interfaces.

Each adapter lives in its own module and needs its own optional extra, so importing this
package pulls in nothing: ``from memory_es.integrations.langgraph import MemoryESStore``
needs ``pip install 'memory-es[langgraph]'``.
"""
