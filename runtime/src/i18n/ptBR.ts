// pt-BR messages: ra-language-portuguese merged over ra-language-english, with the keys the
// Portuguese package lacks filled in here, plus Rastro's own texts (spec sections 2, 5, 8).
import englishMessages from 'ra-language-english';
import portugueseMessages from 'ra-language-portuguese';

type Messages = { [key: string]: string | Messages };

export function deepMerge(base: Messages, over: Messages): Messages {
  const out: Messages = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = typeof v === 'object' && typeof b === 'object' ? deepMerge(b, v) : v;
  }
  return out;
}

// Keys missing from ra-language-portuguese 1.6 (react-admin 5.15 added them) and overrides
// where the spec fixes the wording.
export const ptBRFill: Messages = {
  ra: {
    action: {
      clear_array_input: 'Limpar a lista',
      create_item: 'Criar %{item}',
      delete: 'Excluir',
      remove_all_filters: 'Remover todos os filtros',
      reset: 'Redefinir',
      search_columns: 'Buscar colunas',
      select_all: 'Selecionar tudo',
      select_all_button: 'Selecionar tudo',
      select_row: 'Selecionar esta linha',
      unselect: 'Desmarcar',
      open_menu: 'Abrir menu',
      close_menu: 'Fechar menu',
      update: 'Atualizar',
      move_up: 'Mover para cima',
      move_down: 'Mover para baixo',
      open: 'Abrir',
      toggle_theme: 'Alternar tema claro/escuro',
      select_columns: 'Selecionar Colunas',
      update_application: 'Recarregar aplicação',
      export: 'Exportar Tabela',
    },
    boolean: { null: ' ' },
    page: {
      empty: 'Nenhum item foi encontrado',
      invite: 'Deseja adicionar um?',
      access_denied: 'Acesso negado',
      authentication_error: 'Erro de autenticação',
      loading: 'Aguarde montando dados...',
    },
    input: {
      password: { toggle_visible: 'Ocultar senha', toggle_hidden: 'Mostrar senha' },
    },
    message: {
      access_denied: 'Você não tem permissão',
      authentication_error: 'O servidor de autenticação retornou um erro e suas credenciais não puderam ser verificadas.',
      auth_error: 'Ocorreu um erro ao validar o token de autenticação.',
      bulk_update_content:
        'Deseja realmente atualizar %{name} %{recordRepresentation}? |||| Deseja realmente atualizar estes %{smart_count} itens?',
      bulk_update_title: 'Atualizar %{name} %{recordRepresentation} |||| Atualizar %{smart_count} %{name}',
      clear_array_input: 'Deseja realmente limpar a lista inteira?',
      delete_title: 'Deseja Excluir?',
      delete_content: 'Esta ação não poderá ser revertida, deseja realmente excluir?',
      select_all_limit_reached: 'Há itens demais para selecionar todos. Apenas os primeiros %{max} foram selecionados.',
      unsaved_changes: 'Você tem alterações não salvas. Se sair suas alterações serão perdidas!',
      placeholder_data_warning: 'Problema de rede: a atualização dos dados falhou.',
    },
    navigation: {
      no_results: 'Nenhum item foi encontrado',
      clear_filters: 'Limpar filtros',
      no_filtered_results: 'Nenhum item foi encontrado',
      partial_page_range_info: '%{offsetBegin}-%{offsetEnd} de mais de %{offsetEnd}',
      current_page: 'Página %{page}',
      page: 'Ir para a página %{page}',
      first: 'Ir para a primeira página',
      last: 'Ir para a última página',
      previous: 'Ir para a página anterior',
      skip_nav: 'Pular para o conteúdo',
    },
    sort: {
      sort_by: 'Ordenar por %{field_lower_first} %{order}',
      ASC: 'crescente',
      DESC: 'decrescente',
    },
    auth: { email: 'E-mail' },
    notification: {
      not_authorized: 'Você não tem permissão',
      application_update_available: 'Uma nova versão está disponível.',
      offline: 'Sem conexão. Não foi possível buscar os dados.',
    },
    validation: { unique: 'Deve ser único' },
    saved_queries: {
      label: 'Consultas salvas',
      query_name: 'Nome da consulta',
      new_label: 'Salvar consulta atual...',
      new_dialog_title: 'Salvar consulta atual como',
      remove_label: 'Remover consulta salva',
      remove_label_with_name: 'Remover consulta "%{name}"',
      remove_dialog_title: 'Remover consulta salva?',
      remove_message: 'Deseja realmente remover este item da sua lista de consultas salvas?',
      help: 'Filtre a lista e salve esta consulta para depois',
    },
    guesser: {
      empty: { title: 'Sem dados para exibir', message: 'Verifique o seu provedor de dados' },
    },
    configurable: {
      customize: 'Personalizar',
      configureMode: 'Configurar esta página',
      inspector: {
        title: 'Inspetor',
        content: 'Passe o mouse sobre os elementos da interface para configurá-los',
        reset: 'Redefinir configurações',
        hideAll: 'Ocultar tudo',
        showAll: 'Mostrar tudo',
      },
      Datagrid: { title: 'Tabela', unlabeled: 'Coluna sem rótulo #%{column}' },
      SimpleForm: { title: 'Formulário', unlabeled: 'Campo sem rótulo #%{input}' },
      SimpleList: {
        title: 'Lista',
        primaryText: 'Texto principal',
        secondaryText: 'Texto secundário',
        tertiaryText: 'Texto terciário',
      },
    },
  },
};

// Rastro's own texts; every string comes from the spec word for word where the spec has one.
export const rastroMessages: Messages = {
  rastro: {
    app: 'Rastro',
    forbidden: 'Você não tem permissão',
    forbiddenAction: 'Você não tem permissão para fazer isso',
    loading: 'Aguarde montando dados...',
    empty: 'Nenhum item foi encontrado',
    copied: 'Copiado para a área de transferência!',
    copyError: 'Erro ao copiar!',
    noInfo: 'Sem informação',
    noOptions: 'Nenhum resultado',
    required: 'O campo %{label} é obrigatório',
    list: {
      search: 'Pesquisar',
      add: 'Adicionar',
      disabled: 'Botão desabilitado',
      print: 'Imprimir',
      columns: 'Selecionar Colunas',
      export: 'Exportar Tabela',
      exportCsv: 'CSV',
      exportXlsx: 'Excel',
      fullscreen: 'Tela cheia',
      exitFullscreen: 'Sair da tela cheia',
      back: 'Voltar',
      actions: 'Ações',
      exportError: 'Erro ao exportar a tabela',
    },
    date: {
      placeholder: 'Ultimos Registros',
      pick: 'Selecione a data',
      until: '%{from} até %{to}',
      today: 'Hoje',
      yesterday: 'Ontem',
      yesterdayToday: 'Ontem e hoje',
      last7: 'Últimos 7 dias',
      last30: 'Últimos 30 dias',
      quarter: 'Último trimestre',
      semester: 'Último semestre',
      from: 'De',
      to: 'Até',
      clear: 'Limpar',
      apply: 'Aplicar',
    },
    form: {
      save: 'Salvar',
      cancel: 'Cancelar',
      delete: 'Excluir',
      history: 'Histórico de alterações',
      deleteTitle: 'Deseja Excluir?',
      deleteContent: 'Esta ação não poderá ser revertida, deseja realmente excluir?',
      leaveTitle: 'Deseja sair?',
      leaveContent: 'Você tem alterações não salvas. Se sair suas alterações serão perdidas!',
      saved: 'Registro salvo',
      deleted: 'Registro excluído',
      invalid: 'Verifique os campos destacados',
      historyEmpty: 'Nenhum item foi encontrado',
      who: 'Quem',
      when: 'Quando',
      operation: 'Operação',
      field: 'Campo',
      before: 'Antes',
      after: 'Depois',
      close: 'Fechar',
      confirm: 'Confirmar',
      edit: 'Editar',
      newTitle: 'Adicionar %{name}',
      editTitle: 'Editar %{name}',
      showTitle: 'Visualizar %{name}',
      jsonInvalid: 'JSON inválido',
    },
    confirm: { title: 'ATENÇÃO', content: 'Deseja continuar a requisição?', cancel: 'Cancelar', ok: 'Confirmar' },
    actionDone: 'Ação executada',
    company: 'Empresa',
    home: {
      title: 'Início',
      welcome: 'Bem-vindo ao Rastro',
      subtitle: 'Resumo da empresa ativa',
    },
    login: {
      title: 'Entrar no Rastro',
      login: 'Usuário',
      password: 'Senha',
      submit: 'Entrar',
      invalid: 'Usuário ou senha inválidos',
    },
    menu: { home: 'Início', logout: 'Sair' },
    inactivity: {
      title: 'Inatividade',
      content: 'Você esta inativo já faz algum tempo, iremos desconecta-lo em: %{n} segundos',
    },
  },
};

// Keys whose Portuguese text is intentionally identical to the English one.
export const sameOnPurpose = new Set<string>(['ra.boolean.null', 'ra.page.dashboard']);

const ptBR = deepMerge(deepMerge(deepMerge(englishMessages as Messages, portugueseMessages as Messages), ptBRFill), rastroMessages);
export default ptBR;
