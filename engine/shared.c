/* engine/shared.py in C, for the compiled engine (tools/build_engine.py builds it with the
 * mypyc modules; the pure-Python engine imports engine/shared.py).
 *
 * ReadOnlyDict and ReadOnlyList are a dict and a list that refuse every change: the commands a
 * listing hands out and the events a quick step emits are made once and shared by every game
 * (docs/engine.md, "Shared commands and events"). A subclass made in Python reads through
 * Python-level slots (`d["type"]` about twice a dict's cost); these keep dict's and list's own
 * reading functions and replace only the changing ones. Their semantics are engine/shared.py's,
 * and tests/engine/test_shared.py holds both to them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static const char REFUSAL[] =
    "a listed command or an event is shared by every game (engine/shared.py): "
    "change a copy of it (dict(x), list(x)), not the value itself";

static PyObject *
refuse(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyErr_SetString(PyExc_TypeError, REFUSAL);
    return NULL;
}

static int
refuse_store(PyObject *self, PyObject *key, PyObject *value)
{
    PyErr_SetString(PyExc_TypeError, REFUSAL);
    return -1;
}

static int
refuse_item(PyObject *self, Py_ssize_t index, PyObject *value)
{
    PyErr_SetString(PyExc_TypeError, REFUSAL);
    return -1;
}

static PyObject *
refuse_binary(PyObject *self, PyObject *other)
{
    PyErr_SetString(PyExc_TypeError, REFUSAL);
    return NULL;
}

static PyObject *
refuse_repeat(PyObject *self, Py_ssize_t count)
{
    PyErr_SetString(PyExc_TypeError, REFUSAL);
    return NULL;
}

/* A plain copy: dict(self) or list(self). */
static PyObject *
plain_dict(PyObject *self, PyObject *unused)
{
    return PyDict_Copy(self);
}

static PyObject *
plain_list(PyObject *self, PyObject *unused)
{
    return PyList_GetSlice(self, 0, PyList_GET_SIZE(self));
}

/* pickle and copy.deepcopy: the plain type with a plain copy. */
static PyObject *
reduce_dict(PyObject *self, PyObject *unused)
{
    PyObject *copy = PyDict_Copy(self);
    if (copy == NULL)
        return NULL;
    return Py_BuildValue("(O(N))", (PyObject *)&PyDict_Type, copy);
}

static PyObject *
reduce_list(PyObject *self, PyObject *unused)
{
    PyObject *copy = plain_list(self, NULL);
    if (copy == NULL)
        return NULL;
    return Py_BuildValue("(O(N))", (PyObject *)&PyList_Type, copy);
}

#define REFUSING(name) {name, (PyCFunction)(void (*)(void))refuse, METH_VARARGS | METH_KEYWORDS, NULL}

static PyMethodDef dict_methods[] = {
    REFUSING("clear"),
    REFUSING("pop"),
    REFUSING("popitem"),
    REFUSING("setdefault"),
    REFUSING("update"),
    {"copy", plain_dict, METH_NOARGS, "A plain dict with the same items."},
    {"__copy__", plain_dict, METH_NOARGS, NULL},
    {"__reduce__", reduce_dict, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef list_methods[] = {
    REFUSING("append"),
    REFUSING("extend"),
    REFUSING("insert"),
    REFUSING("pop"),
    REFUSING("remove"),
    REFUSING("clear"),
    REFUSING("sort"),
    REFUSING("reverse"),
    {"copy", plain_list, METH_NOARGS, "A plain list with the same items."},
    {"__copy__", plain_list, METH_NOARGS, NULL},
    {"__reduce__", reduce_list, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* Reading slots are left empty here: PyType_Ready fills them with dict's and list's own. */
static PyMappingMethods dict_mapping = {0, 0, refuse_store};
static PyNumberMethods dict_number = {.nb_inplace_or = refuse_binary};
static PyMappingMethods list_mapping = {0, 0, refuse_store};
static PySequenceMethods list_sequence = {
    .sq_ass_item = refuse_item,
    .sq_inplace_concat = refuse_binary,
    .sq_inplace_repeat = refuse_repeat,
};

static PyTypeObject ReadOnlyDict = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.shared.ReadOnlyDict",
    .tp_doc = "A dict that refuses every change (a shared command or event).",
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_as_mapping = &dict_mapping,
    .tp_as_number = &dict_number,
    .tp_methods = dict_methods,
};

static PyTypeObject ReadOnlyList = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.shared.ReadOnlyList",
    .tp_doc = "A list that refuses every change (a shared event's seats or cards).",
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_as_mapping = &list_mapping,
    .tp_as_sequence = &list_sequence,
    .tp_methods = list_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "engine.shared",
    .m_doc = "Read-only dicts and lists (engine/shared.py, in C).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit_shared(void)
{
    ReadOnlyDict.tp_base = &PyDict_Type;
    ReadOnlyList.tp_base = &PyList_Type;
    if (PyType_Ready(&ReadOnlyDict) < 0 || PyType_Ready(&ReadOnlyList) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "ReadOnlyDict", (PyObject *)&ReadOnlyDict) < 0
        || PyModule_AddObjectRef(m, "ReadOnlyList", (PyObject *)&ReadOnlyList) < 0
        || PyModule_AddStringConstant(m, "REFUSAL", REFUSAL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
